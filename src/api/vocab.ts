/**
 * The API's small vocabulary, shared by the route table (query schemas, pre-render enumeration),
 * the handlers and the response schemas, so each list and each rule is written once.
 */
import type { MatchState } from '../store/records.js';

export const SERVICE_NAME = 'Football Data Service';
export const API_VERSION = '2.0.0';

/** `/fixtures?status=`: the public names of match states (`unknown` shows only under `all`). */
export const FIXTURE_STATUSES = ['all', 'scheduled', 'live', 'finished'] as const;
export type FixtureStatus = (typeof FIXTURE_STATUSES)[number];

export const STATE_OF: Readonly<Record<FixtureStatus, MatchState | null>> = {
  all: null,
  scheduled: 'pre',
  live: 'in',
  finished: 'post',
};

/** `/leagues?kind=`: a league is a club or an international competition; `all` lists both. */
export const LEAGUE_KINDS = ['club', 'international'] as const;
export const LEAGUE_KIND_FILTERS = [...LEAGUE_KINDS, 'all'] as const;

export const HEALTH_STATUSES = ['healthy', 'unhealthy'] as const;
export const DATABASE_STATES = ['connected', 'disconnected', 'error'] as const;
export type DatabaseState = (typeof DATABASE_STATES)[number];
/** Why a store could not be used: there is none, or it cannot be read. */
export type StoreProblem = Exclude<DatabaseState, 'connected'>;

/** Pages of `size` needed for `count` items; the envelope says 0 pages for nothing. */
export const pageCount = (count: number, size: number): number => Math.ceil(count / size);
/** Pages the build pre-renders: page 1 always exists (an empty list), even for nothing. */
export const pagesToRender = (count: number, size: number): number => Math.max(1, pageCount(count, size));
/** Zero-based offset of a 1-based page. */
export const pageOffset = (page: number, size: number): number => (page - 1) * size;
