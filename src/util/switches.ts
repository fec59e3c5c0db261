/**
 * Internal switches for the speed mechanisms (docs/performance.md): `FDS_WITHOUT=a,b` turns the
 * named ones off, so the bench can measure what each one gains on its own. Not a user setting: the
 * output is byte-identical either way, only the time differs.
 */

/** Every mechanism a switch can turn off; docs/performance.md says what each one targets and gains. */
export const MECHANISMS = [
  'bounded-heap',
  'short-build-v8',
  'prestart-worker',
  'day-worker',
  'recycle',
  'spare',
  'spool-segments',
  'manifest-ranges',
] as const;

export type Mechanism = (typeof MECHANISMS)[number];

export const WITHOUT_ENV = 'FDS_WITHOUT';

let off: ReadonlySet<string> | null = null;

/** Whether a mechanism is on (the default), read once per process from FDS_WITHOUT. */
export function uses(mechanism: Mechanism): boolean {
  off ??= new Set((process.env[WITHOUT_ENV] ?? '').split(',').map((s) => s.trim()));
  return !off.has(mechanism);
}
