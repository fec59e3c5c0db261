/**
 * 11: the sync plan's state (docs/cli.md, "ESPN over HTTP"): when each part of a provider's
 * request plan last ran, what it remembered (a month that must be asked day by day, a match's
 * settle stage, a block's deadline), kept in the store so a one-shot `fds sync` and a restarted
 * `fds live` follow the same plan.
 */
export const syncPlan = `
  CREATE TABLE IF NOT EXISTS sync_plan (
    provider    TEXT NOT NULL,
    league_slug TEXT NOT NULL,   -- '' for what concerns the provider as a whole
    key         TEXT NOT NULL,   -- window | fallback:YYYYMM | settle:ID | catalogue | block
    value       TEXT NOT NULL,
    at          TEXT NOT NULL,   -- ISO-8601 UTC: when the value was set
    PRIMARY KEY (provider, league_slug, key)
  ) STRICT, WITHOUT ROWID;
`;
