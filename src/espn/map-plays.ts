/**
 * Core-API play pages → play records. Core plays carry only `$ref` links for teams and athletes:
 * they are resolved to ids here, and names are attached from what the store knows about the match
 * (its competitors and lineups, then club rosters). An unknown name stays null; a URL never leaks.
 */
import type { PlayRecord } from '../store/records.js';
import { idFromRef } from './map-common.js';
import { PlaysPageSchema } from './schemas.js';
import type { EspnPlay, EspnPlaysPage } from './schemas.js';

export interface TeamInfo {
  displayName: string | null;
  abbreviation: string | null;
}

export interface AthleteInfo {
  displayName: string | null;
  jersey: string | null;
  teamId: string | null;
}

export interface PlayContext {
  team(id: string): TeamInfo | undefined;
  athlete(id: string): AthleteInfo | undefined;
}

export interface MappedPlays {
  plays: PlayRecord[];
  /** Every page of the stream was present (count and pages agree). */
  complete: boolean;
}

function mapPlay(p: EspnPlay, sequence: number, ctx: PlayContext): PlayRecord {
  const teamId = idFromRef(p.team?.$ref, 'teams');
  const team = teamId ? ctx.team(teamId) : undefined;
  const participants = [...(p.participants ?? [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  const people = participants.flatMap((part) => {
    const id = idFromRef(part.athlete.$ref, 'athletes');
    if (!id) return [];
    const known = ctx.athlete(id);
    const partTeam = idFromRef(part.team?.$ref, 'teams') ?? known?.teamId ?? null;
    return [
      {
        id,
        type: part.type ?? null,
        name: known?.displayName ?? null,
        jersey: part.jersey ?? known?.jersey ?? null,
        teamId: partTeam,
      },
    ];
  });
  const flag = (v: boolean | undefined) => v ?? false;
  return {
    id: p.id,
    sequence,
    type: { id: p.type?.id ?? null, text: p.type?.text ?? null, type: p.type?.type ?? null },
    text: p.text ?? p.shortText ?? null,
    homeScore: p.homeScore ?? null,
    awayScore: p.awayScore ?? null,
    period: { number: p.period?.number ?? 0 },
    clock: { value: p.clock?.value ?? null, displayValue: p.clock?.displayValue ?? null },
    addedClock:
      p.addedClock && (p.addedClock.value || p.addedClock.displayValue)
        ? { value: p.addedClock.value ?? null, displayValue: p.addedClock.displayValue ?? null }
        : null,
    scoringPlay: flag(p.scoringPlay),
    scoreValue: p.scoreValue ?? 0,
    redCard: flag(p.redCard),
    yellowCard: flag(p.yellowCard),
    penaltyKick: flag(p.penaltyKick),
    ownGoal: flag(p.ownGoal),
    shootout: flag(p.shootout),
    substitution: flag(p.substitution),
    team: teamId
      ? { id: teamId, displayName: team?.displayName ?? null, abbreviation: team?.abbreviation ?? null }
      : null,
    athletesInvolved: people.map((a) => ({ id: a.id, displayName: a.name, jersey: a.jersey, team: { id: a.teamId } })),
    participants: people.map((a) => ({
      type: a.type,
      athlete: { id: a.id, displayName: a.name },
      team: { id: a.teamId },
    })),
    wallclock: p.wallclock ?? null,
  };
}

export function parsePlaysPage(payload: unknown): EspnPlaysPage {
  return PlaysPageSchema.parse(payload);
}

/** All pages of one match's stream, in any order, to records in stream order (sequence from 1). */
export function mapPlays(payloads: unknown[], ctx: PlayContext): MappedPlays {
  const pages = payloads.map(parsePlaysPage).sort((a, b) => a.pageIndex - b.pageIndex);
  const seen = new Set<string>();
  const plays: PlayRecord[] = [];
  for (const page of pages) {
    page.items.forEach((item, i) => {
      if (seen.has(item.id)) return; // a live stream can shift between page requests
      seen.add(item.id);
      const sequence = Math.max(page.pageIndex - 1, 0) * page.pageSize + i + 1;
      plays.push(mapPlay(item, sequence, ctx));
    });
  }
  plays.sort((a, b) => a.sequence - b.sequence);
  const first = pages[0];
  const pageCount = first?.pageCount ?? 0;
  const indices = new Set(pages.map((p) => p.pageIndex));
  const complete =
    first === undefined ||
    (pages.every((p) => p.pageCount === pageCount) && [...Array(pageCount).keys()].every((i) => indices.has(i + 1)));
  return { plays, complete };
}
