/** Match records → scoreboard/fixture events and their single competition. */
import type { CompetitorRecord, MatchRecord, MatchStatusRecord, StatRecord } from '../../store/records.js';
import { embeddedClub, venueBody } from './club.js';

export function statusBody(s: MatchStatusRecord) {
  const t = s.type;
  return {
    clock: s.clock,
    displayClock: s.displayClock,
    period: s.period,
    type: {
      id: t.id ?? null,
      name: t.name,
      state: t.state,
      completed: t.completed,
      description: t.description,
      detail: t.detail,
      shortDetail: t.shortDetail,
    },
  };
}

export const statBody = (s: StatRecord) => ({
  name: s.name,
  abbreviation: s.abbreviation,
  displayValue: s.displayValue,
  value: s.value,
});

function competitorBody(c: CompetitorRecord, catalogue: ReadonlySet<string>) {
  const out: Record<string, unknown> = {
    id: c.id,
    uid: c.uid,
    type: 'team',
    homeAway: c.homeAway,
    score: c.score,
    winner: c.winner,
    form: c.form,
    team: embeddedClub(c.team, catalogue),
    statistics: c.statistics.map(statBody),
  };
  if (c.shootoutScore !== undefined) out.shootoutScore = c.shootoutScore;
  if (c.aggregateScore !== undefined) out.aggregateScore = c.aggregateScore;
  if (c.advance !== undefined) out.advance = c.advance;
  return out;
}

export function competitionBody(m: MatchRecord, catalogue: ReadonlySet<string>) {
  return {
    id: m.competitionId,
    uid: m.competitionUid,
    date: m.date,
    startDate: m.date,
    status: statusBody(m.status),
    attendance: m.attendance,
    venue: venueBody(m.venue),
    competitors: m.competitors.map((c) => competitorBody(c, catalogue)),
    details: m.details,
    broadcasts: m.broadcasts,
    odds: m.odds,
    notes: m.notes,
    format: m.format ?? null,
    playByPlayAvailable: m.playByPlayAvailable,
    wasSuspended: m.wasSuspended,
  };
}

export function eventBody(m: MatchRecord, catalogue: ReadonlySet<string>) {
  return {
    id: m.id,
    uid: m.uid,
    date: m.date,
    name: m.name,
    shortName: m.shortName,
    season: m.season ? { year: m.season.year, type: m.season.type, slug: m.season.slug } : null,
    status: statusBody(m.status),
    venue: m.venue ? { displayName: m.venue.fullName } : null,
    competitions: [competitionBody(m, catalogue)],
  };
}
