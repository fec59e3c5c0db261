/**
 * ESPN's calendar: its boards take US-Eastern days (research/espn-api.md, "Since 2026-09-15"), while
 * the store keys matches by UTC day. A window of UTC days therefore needs the Eastern days one
 * either side of it; what a board brings beyond the window is not kept.
 */
import { addDays, daysBetween, parseYmd, ymd } from '../../util/time.js';

const EASTERN = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** YYYYMMDD of the US-Eastern calendar day an instant falls on. */
export function easternDay(at: Date): string {
  return EASTERN.format(at).replaceAll('-', '');
}

/** The Eastern days a window of UTC days (YYYYMMDD, inclusive) can hold matches of: widened by a day each end. */
function widened(from: string, to: string): string[] {
  return daysBetween(ymd(addDays(parseYmd(from)!, -1)), ymd(addDays(parseYmd(to)!, 1)));
}

/** The months (YYYYMM) whose boards cover the window. */
export function windowMonths(from: string, to: string): string[] {
  return [...new Set(widened(from, to).map((d) => d.slice(0, 6)))];
}

/** The days of one month that the widened window holds: a month's day boards, when it must be asked day by day. */
export function monthDays(month: string, from: string, to: string): string[] {
  return widened(from, to).filter((d) => d.startsWith(month));
}

/** Is a kickoff (ISO-8601) on one of the window's UTC days? */
export function inWindow(kickoff: string, from: string, to: string): boolean {
  const day = kickoff.slice(0, 10).replaceAll('-', '');
  return day >= from && day <= to;
}
