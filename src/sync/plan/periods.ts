/** The ESPN request plan's periods and bounds (espn-plan.ts; docs/cli.md, "ESPN over HTTP"). */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const PLAN = {
  /**
   * A month board's `limit`. Without one ESPN stops at 100 events; at 600 and above it may silently
   * answer 25; a board holding exactly the limit is taken as cut and the month is asked day by day.
   */
  monthLimit: 500,
  windowEvery: HOUR,
  windowEveryOnMatchday: 15 * MINUTE,
  /** A match is hot from this long before its kickoff … */
  hotBefore: 10 * MINUTE,
  /** … until it is over, or this long after a kickoff it never started from. */
  hotIfNeverStarted: 3 * HOUR,
  /** A match stuck in play this long after kickoff is left to the window's refreshes. */
  hotAtMost: 6 * HOUR,
  inPlaySummaryEvery: MINUTE,
  settleAgainAfter: 30 * MINUTE,
  /** A match that ended longer ago than this when first settled is final at once (no late corrections to wait for). */
  settleRecentWithin: 12 * HOUR,
  catalogueEvery: 24 * HOUR,
  /**
   * Rosters and reschedule checks per run: the day's share since it was last taken (so each falls due
   * a day after the last, spread as they were), at most `max`; never-asked ones up to `firstAsks`.
   */
  catalogueBudget: { firstAsks: 8, max: 24 },
  blockFirst: 30 * MINUTE,
  blockMax: 6 * HOUR,
} as const;
