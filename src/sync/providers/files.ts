/**
 * Recorded ESPN responses in a directory (docs/cli.md, "Recorded files"):
 *   <league>/scoreboard/<YYYYMMDD>.json, <league>/summary/<eventId>.json,
 *   <league>/plays/<eventId>.json | <eventId>-<page>.json, <league>/teams.json,
 *   <league>/roster/<teamId>.json, <league>/standings/<season>.json | standings.json
 * Every file is optional. Files outside this layout and folders of other leagues are ignored and
 * reported.
 */
import fs from 'node:fs/promises';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { LEAGUE_SLUGS } from '../../reference/leagues.js';
import type { Provider } from '../provider.js';

const DATE_FILE = /^(\d{8})\.json$/;
const ID_FILE = /^([A-Za-z0-9_-]+)\.json$/;
const PLAYS_FILE = /^([A-Za-z0-9_]+)(?:-(\d+))?\.json$/;
const SEASON_FILE = /^(\d{4})\.json$/;

interface LeagueFiles {
  scoreboards: Map<string, string>;
  summaries: Map<string, string>;
  plays: Map<string, Array<{ page: number; file: string }>>;
  teams: string | null;
  rosters: Map<string, string>;
  standings: Map<number | null, string>;
}

export class FilesProvider implements Provider {
  readonly name = 'files';
  readonly refetchFinished = true;
  private readonly leagues = new Map<string, LeagueFiles>();
  private readonly skipped: string[] = [];

  constructor(private readonly root: string) {
    if (!existsSync(root) || !statSync(root).isDirectory()) throw new Error(`--source ${root} is not a directory`);
    const known = new Set(LEAGUE_SLUGS);
    for (const entry of readdirSync(root, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory() && known.has(entry.name)) this.leagues.set(entry.name, this.index(entry.name));
      else this.skipped.push(entry.name + (entry.isDirectory() ? '/' : ''));
    }
  }

  private index(league: string): LeagueFiles {
    const dir = path.join(this.root, league);
    const lf: LeagueFiles = {
      scoreboards: new Map(),
      summaries: new Map(),
      plays: new Map(),
      teams: null,
      rosters: new Map(),
      standings: new Map(),
    };
    const list = (sub: string) => (existsSync(path.join(dir, sub)) ? readdirSync(path.join(dir, sub)) : []);
    const skip = (rel: string) => this.skipped.push(`${league}/${rel}`);
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      const isDir = statSync(full).isDirectory();
      if (name === 'teams.json' && !isDir) lf.teams = full;
      else if (name === 'standings.json' && !isDir) lf.standings.set(null, full);
      else if (!isDir || !['scoreboard', 'summary', 'plays', 'roster', 'standings'].includes(name)) skip(name);
    }
    for (const f of list('scoreboard')) {
      const m = DATE_FILE.exec(f);
      if (m) lf.scoreboards.set(m[1]!, path.join(dir, 'scoreboard', f));
      else skip(`scoreboard/${f}`);
    }
    for (const f of list('summary')) {
      const m = ID_FILE.exec(f);
      if (m) lf.summaries.set(m[1]!, path.join(dir, 'summary', f));
      else skip(`summary/${f}`);
    }
    for (const f of list('plays')) {
      const m = PLAYS_FILE.exec(f);
      if (!m) {
        skip(`plays/${f}`);
        continue;
      }
      const pages = lf.plays.get(m[1]!) ?? [];
      pages.push({ page: m[2] ? Number(m[2]) : 1, file: path.join(dir, 'plays', f) });
      lf.plays.set(m[1]!, pages);
    }
    for (const f of list('roster')) {
      const m = ID_FILE.exec(f);
      if (m) lf.rosters.set(m[1]!, path.join(dir, 'roster', f));
      else skip(`roster/${f}`);
    }
    for (const f of list('standings')) {
      const m = SEASON_FILE.exec(f);
      if (m) lf.standings.set(Number(m[1]), path.join(dir, 'standings', f));
      else skip(`standings/${f}`);
    }
    return lf;
  }

  private files(league: string): LeagueFiles | undefined {
    return this.leagues.get(league);
  }

  private async read(file: string | undefined): Promise<unknown | undefined> {
    if (!file) return undefined;
    const text = await fs.readFile(file, 'utf8');
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw new Error(`${path.relative(this.root, file)}: not valid JSON (${(err as Error).message})`);
    }
  }

  async scoreboardDates(league: string) {
    return [...(this.files(league)?.scoreboards.keys() ?? [])].sort();
  }
  scoreboard(league: string, date: string) {
    return this.read(this.files(league)?.scoreboards.get(date));
  }
  async eventIds(league: string, boardEventIds: string[]) {
    const lf = this.files(league);
    const ids = new Set([...(lf?.summaries.keys() ?? []), ...(lf?.plays.keys() ?? [])]);
    // Board events without files are simply not available; asking for them would only count misses.
    void boardEventIds;
    return [...ids].sort();
  }
  summary(league: string, eventId: string) {
    return this.read(this.files(league)?.summaries.get(eventId));
  }
  async plays(league: string, eventId: string) {
    const pages = this.files(league)?.plays.get(eventId);
    if (!pages?.length) return undefined;
    const sorted = [...pages].sort((a, b) => a.page - b.page);
    return Promise.all(sorted.map((p) => this.read(p.file)));
  }
  teams(league: string) {
    return this.read(this.files(league)?.teams ?? undefined);
  }
  async rosterTeamIds(league: string) {
    return [...(this.files(league)?.rosters.keys() ?? [])].sort();
  }
  roster(league: string, teamId: string) {
    return this.read(this.files(league)?.rosters.get(teamId));
  }
  async standingsSeasons(league: string) {
    return [...(this.files(league)?.standings.keys() ?? [])].sort((a, b) => (a ?? 0) - (b ?? 0));
  }
  standings(league: string, season: number | null) {
    return this.read(this.files(league)?.standings.get(season));
  }
  ignored() {
    return [...this.skipped];
  }
}
