/** What the store knows about a match's people, used to put names on core plays' `$ref` links. */
import type { DB } from '../store/db.js';
import { spansOf, summarySize, unpackBytes, unpackJson } from '../store/blob.js';
import { objectSpans } from '../util/json-spans.js';
import type { MatchRecord, PlayerRecord, SummarySections } from '../store/records.js';
import type { AthleteInfo, PlayContext, TeamInfo } from '../espn/map-plays.js';

interface LineupTeam {
  team?: { id?: unknown; displayName?: unknown; abbreviation?: unknown };
  roster?: Array<{ jersey?: unknown; athlete?: { id?: unknown; displayName?: unknown } }>;
}

const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;

/**
 * A loader of play contexts for one sync: its statements are prepared once, not once per match.
 */
export function playContexts(db: DB): (league: string, matchId: string) => PlayContext {
  const s = {
    match: db.prepare('SELECT record FROM matches WHERE league_slug = ? AND id = ?').pluck(),
    players: db.prepare('SELECT club_id, record_json FROM players WHERE club_id = ?'),
    sections: db.prepare(
      'SELECT sections, section_spans AS spans FROM match_summaries WHERE league_slug = ? AND match_id = ?',
    ),
    club: db.prepare('SELECT record_json FROM clubs WHERE id = ?').pluck(),
    rosterHash: db.prepare('SELECT hash FROM rosters WHERE club_id = ?').pluck(),
  };
  // A club's squad as the store holds it, parsed once per roster hash rather than once per match.
  const squads = new Map<string, { hash: unknown; athletes: Array<[string, AthleteInfo]> }>();
  const squad = (clubId: string): Array<[string, AthleteInfo]> => {
    const hash = s.rosterHash.get(clubId);
    const known = squads.get(clubId);
    if (known && hash !== undefined && known.hash === hash) return known.athletes;
    const athletes = (s.players.all(clubId) as Array<{ club_id: string; record_json: string }>).map(
      (row): [string, AthleteInfo] => {
        const p = JSON.parse(row.record_json) as PlayerRecord;
        return [p.id, { displayName: p.displayName, jersey: p.jersey, teamId: row.club_id }];
      },
    );
    squads.set(clubId, { hash, athletes });
    return athletes;
  };
  return (league, matchId) => {
    const teams = new Map<string, TeamInfo>();
    const athletes = new Map<string, AthleteInfo>();

    const packed = s.match.get(league, matchId) as Buffer | undefined;
    const match = packed ? (JSON.parse(unpackJson(packed)) as MatchRecord) : undefined;
    for (const c of match?.competitors ?? []) {
      teams.set(c.team.id, { displayName: c.team.displayName, abbreviation: c.team.abbreviation });
    }

    // Club rosters first, then the match lineups: the lineup is the better source for this match.
    for (const c of match?.competitors ?? []) {
      for (const [id, info] of squad(c.team.id)) athletes.set(id, info);
    }
    const rostersJson = rostersOf(s.sections.get(league, matchId) as StoredSummary | undefined);
    const rosters = rostersJson ? (JSON.parse(rostersJson) as SummarySections['rosters']) : [];
    for (const side of (Array.isArray(rosters) ? rosters : []) as LineupTeam[]) {
      const teamId = str(side.team?.id);
      if (teamId && !teams.has(teamId)) {
        teams.set(teamId, { displayName: str(side.team?.displayName), abbreviation: str(side.team?.abbreviation) });
      }
      for (const entry of side.roster ?? []) {
        const id = str(entry.athlete?.id);
        if (id) athletes.set(id, { displayName: str(entry.athlete?.displayName), jersey: str(entry.jersey), teamId });
      }
    }

    return {
      team(id) {
        if (!teams.has(id)) {
          const json = s.club.get(id) as string | undefined;
          const club = json ? (JSON.parse(json) as { displayName: string; abbreviation: string | null }) : undefined;
          if (club) teams.set(id, { displayName: club.displayName, abbreviation: club.abbreviation });
        }
        return teams.get(id);
      },
      athlete: (id) => athletes.get(id),
    };
  };
}

interface StoredSummary {
  sections: Buffer | null;
  spans: string | null;
}

/**
 * Only the lineups are needed: cut them out of the summary's text rather than parsing all of it, by
 * the spans stored beside it (or, lacking them, by scanning it).
 */
function rostersOf(stored: StoredSummary | undefined): string | undefined {
  if (!stored?.sections) return undefined;
  const spans = stored.spans ? spansOf(stored.spans) : undefined;
  const bytes = unpackBytes(stored.sections, spans && summarySize(spans));
  const span = (spans ?? objectSpans(bytes)).get('rosters');
  return span && bytes.subarray(span[0], span[1]).toString('utf8');
}
