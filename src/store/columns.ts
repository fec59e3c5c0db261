/**
 * Columns derived from a match's record, as SQL over its JSON: the writer stores them with every
 * record, and the migrations that added them derived them for the records already stored — so both
 * use these very expressions.
 */

/** A match's scores as the change feed lists them. */
export const HOME_SCORE = `->> '$.competitors[0].score'`;
export const AWAY_SCORE = `->> '$.competitors[1].score'`;

/** The two things a summary reads of its match's record: the provider, and whether a competitor has statistics. */
export const providerOf = (json: string) => `${json} ->> '$.provider'`;
export const hasStatistics = (json: string) =>
  `EXISTS (SELECT 1 FROM json_each(${json}, '$.competitors') WHERE json_array_length(value, '$.statistics') > 0)`;
