/** /leagues and /meta: the catalogue of leagues and what the store holds overall. */
import type { StoreReader } from '../../store/read/reader.js';
import type { HandlerResult } from '../route.js';
import { compareText, leagueBody } from '../serialize/league.js';
import { API_VERSION, SERVICE_NAME } from '../vocab.js';

export const FEATURES = [
  'league-catalog',
  'club-catalog',
  'fixtures-and-live-scores',
  'match-summary',
  'play-by-play',
  'standings',
];

export function leagues(store: StoreReader, q: { kind: string; available: boolean }): HandlerResult {
  const list = store.leagues
    .all()
    .filter((l) => q.kind === 'all' || l.kind === q.kind)
    .map((l) => leagueBody(l, store.coverage(l.slug)))
    .filter((l) => !q.available || l.coverage.hasData)
    .sort((a, b) => compareText(a.name, b.name) || compareText(a.slug, b.slug));
  return {
    body: {
      meta: { kind: q.kind, availableOnly: q.available, count: list.length, generatedAt: store.meta().snapshotAt },
      leagues: list,
    },
  };
}

export function meta(store: StoreReader): HandlerResult {
  const m = store.meta();
  const t = store.totals();
  return {
    body: {
      service: { name: SERVICE_NAME, version: API_VERSION, dataSource: m.provider, upstreamCallsDuringRequest: false },
      coverage: {
        competitions: t.competitions,
        activeClubCompetitions: t.activeClubCompetitions,
        activeInternationalCompetitions: t.activeInternationalCompetitions,
        competitionsWithMatches: t.competitionsWithMatches,
        dedicatedClubDocuments: t.dedicatedClubDocuments,
        matches: t.matches,
        playByPlayEvents: t.playByPlayEvents,
        standingsGroups: t.standingsGroups,
      },
      features: FEATURES,
      lastSuccessfulSyncAt: m.lastSuccessfulSyncAt,
      generatedAt: m.snapshotAt,
    },
  };
}
