/**
 * Internal switches for the speed mechanisms (docs/performance.md): `FDS_WITHOUT=a,b` turns the
 * named ones off, so the bench can measure what each one gains on its own. Not a user setting: the
 * output is byte-identical either way, only the time differs (test/publish/mechanisms.test.ts).
 * Each mechanism also notes when it acts (`engaged`), so a build can say which ones did — `fds build`
 * prints it when FDS_WITHOUT is set, even empty — and that test can tell a switch that made no
 * difference from one whose mechanism never ran.
 */

/** Every mechanism a switch can turn off; docs/performance.md says what each one targets and gains. */
export const MECHANISMS = [
  'bounded-heap',
  'short-build-v8',
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

const acted = new Set<Mechanism>();

/** Note that a mechanism acted in this process (what `takeEngaged` gives next). */
export function engaged(mechanism: Mechanism): void {
  acted.add(mechanism);
}

/** The mechanisms that acted since the last call, in MECHANISMS order: one build's account. */
export function takeEngaged(): Mechanism[] {
  const list = MECHANISMS.filter((m) => acted.has(m));
  acted.clear();
  return list;
}
