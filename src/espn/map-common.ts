/** Mapping pieces shared by every ESPN payload: status, scores, clubs, venues, statistics. */
import type { z } from 'zod';
import type {
  ClubRecord,
  CompetitorRecord,
  MatchState,
  MatchStatusRecord,
  StatRecord,
  VenueRecord,
} from '../store/records.js';
import type { CompetitorSchema, EspnTeam, ScoreSchema, StatusSchema, VenueSchema } from './schemas.js';

type EspnStatus = z.infer<typeof StatusSchema>;
type EspnVenue = z.infer<typeof VenueSchema>;
type EspnCompetitor = z.infer<typeof CompetitorSchema>;

const STATES: ReadonlySet<string> = new Set(['pre', 'in', 'post']);

export function mapStatus(status: EspnStatus | undefined): MatchStatusRecord {
  const t = status?.type;
  const state = (t?.state && STATES.has(t.state) ? t.state : 'unknown') as MatchState;
  return {
    clock: status?.clock ?? 0,
    displayClock: status?.displayClock ?? '',
    period: status?.period ?? 0,
    type: {
      id: t?.id ?? null,
      name: t?.name ?? 'STATUS_UNKNOWN',
      state,
      completed: t?.completed ?? false,
      description: t?.description ?? '',
      detail: t?.detail ?? '',
      shortDetail: t?.shortDetail ?? t?.detail ?? '',
    },
  };
}

/** A score exists once a match has started; ESPN writes "0" before kickoff and for postponed matches. */
export function hasScore(status: MatchStatusRecord): boolean {
  const { state, completed } = status.type;
  if (state === 'pre' || state === 'unknown') return false;
  if (state === 'post' && !completed && status.period === 0) return false;
  return true;
}

/** Every ESPN score form (string, number, {value, displayValue}) to the API's string form. */
export function normalizeScore(score: z.infer<typeof ScoreSchema>): string | null {
  if (score === undefined || score === null) return null;
  if (typeof score === 'string') return score.trim() === '' ? null : score.trim();
  if (typeof score === 'number') return Number.isFinite(score) ? String(score) : null;
  if (score.displayValue !== undefined && score.displayValue !== '') return score.displayValue;
  return score.value !== undefined ? String(score.value) : null;
}

export function mapVenue(v: Partial<EspnVenue> | undefined): VenueRecord | null {
  // Boards give a team's venue as a bare {id}: without a name it tells a client nothing.
  if (!v || (!v.fullName && !v.displayName)) return null;
  return {
    id: v.id ?? '',
    fullName: v.fullName ?? v.displayName ?? '',
    address: { city: v.address?.city ?? null, country: v.address?.country ?? null },
  };
}

function pickLogo(team: EspnTeam): string | null {
  if (team.logo) return team.logo;
  const logos = team.logos ?? [];
  return (logos.find((l) => l.rel?.includes('default')) ?? logos[0])?.href ?? null;
}

const nonEmpty = (s: string | undefined): string | null => (s === undefined || s === '' ? null : s);

export function mapClub(team: EspnTeam): ClubRecord {
  const displayName = team.displayName ?? team.name ?? team.shortDisplayName ?? team.id;
  const venue = mapVenue(team.venue);
  return {
    id: team.id,
    uid: nonEmpty(team.uid),
    name: team.name ?? displayName,
    displayName,
    shortDisplayName: team.shortDisplayName ?? displayName,
    abbreviation: nonEmpty(team.abbreviation),
    location: nonEmpty(team.location),
    // ESPN has no club address; the home ground's, when the payload gives one, is the club's.
    country: venue?.address.country ?? null,
    city: venue?.address.city ?? null,
    logo: pickLogo(team),
    color: nonEmpty(team.color),
    alternateColor: nonEmpty(team.alternateColor),
    foundedYear: null,
    venue,
    isActive: team.isActive ?? true,
  };
}

const STAT_ABBREVIATIONS: Record<string, string> = {
  possessionPct: 'PP',
  totalShots: 'SHOT',
  shotsOnTarget: 'SOG',
  wonCorners: 'CW',
  foulsCommitted: 'FC',
  goalAssists: 'A',
  totalGoals: 'G',
  shotAssists: 'SHAST',
  appearances: 'APP',
};

export function mapStat(s: {
  name: string;
  abbreviation?: string;
  displayValue?: string;
  value?: unknown;
}): StatRecord {
  // Boards give only displayValue ("7", "63.2"); a plain number there is the value, anything else is not.
  const numeric = (v: unknown) =>
    typeof v === 'number' && Number.isFinite(v)
      ? v
      : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())
        ? Number(v)
        : null;
  const value = numeric(s.value) ?? (s.value === undefined || s.value === null ? numeric(s.displayValue) : null);
  return {
    name: s.name,
    abbreviation: s.abbreviation ?? STAT_ABBREVIATIONS[s.name] ?? s.name,
    displayValue: s.displayValue ?? (value === null ? null : String(value)),
    value,
  };
}

export function mapCompetitor(c: EspnCompetitor, status: MatchStatusRecord): CompetitorRecord {
  const out: CompetitorRecord = {
    id: c.id,
    uid: c.uid ?? c.team.uid ?? null,
    type: 'team',
    homeAway: c.homeAway,
    score: hasScore(status) ? normalizeScore(c.score) : null,
    winner: c.winner ?? null,
    form: c.form ?? c.team.form ?? null,
    team: mapClub(c.team),
    statistics: (c.statistics ?? []).map(mapStat),
  };
  if (c.shootoutScore !== undefined) out.shootoutScore = String(c.shootoutScore);
  if (c.aggregateScore !== undefined) out.aggregateScore = String(c.aggregateScore);
  if (c.advance !== undefined) out.advance = c.advance;
  return out;
}

/** Home first, away second: ESPN's array order is not a promise. */
export function homeAwayOrder<T extends { homeAway: 'home' | 'away' }>(competitors: T[]): T[] {
  const home = competitors.find((c) => c.homeAway === 'home');
  const away = competitors.find((c) => c.homeAway === 'away');
  if (!home || !away) throw new Error('a match needs one home and one away competitor');
  return [home, away];
}

/** The last path segment after `/{segment}/` in an ESPN `$ref` URL: `…/teams/364?lang=en` → `364`. */
export function idFromRef(ref: string | undefined, segment: string): string | null {
  if (!ref) return null;
  let re = REF_SEGMENTS.get(segment);
  if (!re) {
    re = new RegExp(`/${segment}/([^/?#]+)`);
    REF_SEGMENTS.set(segment, re);
  }
  return re.exec(ref)?.[1] ?? null;
}

/** idFromRef's pattern per segment, compiled once: a sync resolves a few refs per play, a million at real weight. */
const REF_SEGMENTS = new Map<string, RegExp>();
