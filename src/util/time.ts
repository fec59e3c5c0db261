/** Time helpers. All times are UTC; the wall clock only ever enters through an injected Clock. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** `2026-03-21T12:45Z` → `2026-03-21T12:45:00Z`: ESPN often omits seconds; sorted text must not care. */
export function normalizeIso(value: string): string | null {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  return isoSeconds(new Date(ms));
}

/** ISO-8601 UTC to the second, no milliseconds: the one timestamp format the store writes. */
export function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** YYYYMMDD of a date's UTC calendar day. */
export function ymd(d: Date): string {
  return d.toISOString().slice(0, 10).replaceAll('-', '');
}

/** Parse YYYYMMDD strictly (a real calendar date) to UTC midnight, or null. */
export function parseYmd(value: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Not Date.UTC: it reads years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return date;
}

export function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * 86_400_000);
}

/** Every YYYYMMDD from `from` to `to` inclusive. */
export function daysBetween(from: string, to: string): string[] {
  const start = parseYmd(from);
  const end = parseYmd(to);
  if (!start || !end) throw new Error(`invalid date range ${from}..${to}`);
  const out: string[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) out.push(ymd(d));
  return out;
}

/**
 * Parse an ISO-8601 instant strictly: date, time and an explicit zone (`Z` or ±hh:mm), a real
 * calendar date and clock time. A zone-less time would be read in the machine's local zone.
 */
export function parseInstant(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})$/.exec(value);
  if (!m) return null;
  const day = parseYmd(`${m[1]}${m[2]}${m[3]}`);
  const [h, min, s] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (!day || h > 23 || min > 59 || s > 59) return null;
  const zone = m[8]!;
  const [oh, om] = zone === 'Z' ? [0, 0] : [Number(zone.slice(1, 3)), Number(zone.slice(4))];
  if (oh > 23 || om > 59) return null;
  const offset = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  const ms = Number(`0.${m[7] ?? '0'}`) * 1000;
  return new Date(day.getTime() + ((h * 60 + min - offset) * 60 + s) * 1000 + Math.floor(ms));
}
