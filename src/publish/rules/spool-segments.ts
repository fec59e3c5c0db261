/**
 * The rule spool (rule-spool.ts) cut into segments: runs of consecutive files in plan order, each
 * in a file of its own, with an index that sums up each segment — its files, and its candidates
 * counted by what their priorities depend on. A segment no change touched is hard-linked from the
 * published build's spool, and its candidates are counted from the index, not read: a day's sync
 * touches a few segments of the many a store has (docs/performance.md, "spool-segments").
 *
 * A segment's key says where its files are in the plan: the route, the league, and the file's
 * place among the route's requests (or match groups) of that league, cut every SEGMENT_GROUPS
 * groups or SEGMENT_ITEMS requests. It holds every line of its files, and its index entry a digest
 * of the file names, so the next build links it only when the same files, untouched, fall under
 * the same key.
 */
import { createHash } from 'node:crypto';
import nodeFs from 'node:fs';
import path from 'node:path';
import type { OutputFs } from '../../util/lines.js';
import { LineWriter } from '../../util/lines.js';
import type { Standing } from '../plan/reach.js';
import type { Head } from './rule-spool.js';

/** Match groups (a match's files of one route) per segment, and requests per segment otherwise. */
const SEGMENT_GROUPS = 64;
const SEGMENT_ITEMS = 512;

/** The spool's index: a summary per segment, in plan order (spool-reader.ts reads it). */
export const INDEX = 'index.ndjson';

/** What a candidate's priority and heat depend on (reach.ts), as the index counts candidates by (rankText). */
export interface Rank {
  /** A literal rule may express it (the spooled `k` is not negative). */
  offered: boolean;
  shortest: 0 | 1;
  level: Standing['level'];
  hotq: string;
  day: string;
  live: boolean;
}

export interface SegmentSummary {
  /** The segment's file in the spool's directory. */
  name: string;
  key: string;
  /** Its files, and the digest of their names in order. */
  files: number;
  digest: string;
  /** Its bytes on file: a segment of another size was cut off or changed, and is not linked. */
  bytes: number;
  /** Its candidates that a literal rule may express: they take a place each in the admission order. */
  offered: number;
  /** Whether every candidate may be carried over (rules.ts `carry`). */
  carriable: boolean;
  /** The routes of its literal candidates (their escape rules go with them). */
  routes: string[];
  /** Its candidates by rank (rankText), counted. */
  ranks: Record<string, number>;
}

/** A spooled candidate's rank: its head (rule-spool.ts) without the match, which priorities do not depend on. */
const rankText = (h: Head) =>
  `${h.k >= 0 ? 1 : 0}\t${h.shortest}\t${h.level === 'league' ? 'L' : 'M'}\t${h.hotq}\t${h.day}\t${h.live ? 1 : 0}`;

export function parseRank(text: string): Rank {
  const [offered, shortest, level, hotq, day, live] = text.split('\t');
  return {
    offered: offered === '1',
    shortest: shortest === '1' ? 1 : 0,
    level: level === 'L' ? 'league' : 'match',
    hotq: hotq ?? '',
    day: day ?? '',
    live: live === '1',
  };
}

/** Gives each plan entry its segment's key, in plan order. */
export class SegmentKeys {
  private at = '';
  private n = 0;

  constructor(
    private readonly groups = SEGMENT_GROUPS,
    private readonly items = SEGMENT_ITEMS,
  ) {}

  /** `group`: the entry is a match group (plan.ts `PlanGroup`). */
  keyOf(route: string, league: string | undefined, group: boolean): string {
    const where = `${route}/${league ?? ''}`;
    if (where !== this.at) {
      this.at = where;
      this.n = 0;
    }
    const cut = Math.floor(this.n++ / (group ? this.groups : this.items));
    return `${where}/${cut}`;
  }
}

/** The digest of a segment's file names, in order. */
export class FileDigest {
  // Hashed at once: a segment's names are a few kilobytes, and a hash update per file cost more.
  private names = '';
  files = 0;

  add(file: string): void {
    this.names += `${file}\n`;
    this.files++;
  }

  digest(): string {
    return createHash('sha1').update(this.names).digest('base64url');
  }
}

interface OpenSegment {
  summary: SegmentSummary;
  writer: LineWriter;
  digest: FileDigest;
  last: string;
  ranks: Map<string, number>;
  routes: Set<string>;
}

/**
 * Writes the spool segment by segment into `dir`: a new segment whenever the key changes (a key
 * met again gets a segment of its own, under a key no plan gives, so it is never linked), and
 * segments of the published spool linked in whole. `finish` writes the index, which makes the spool.
 */
export class SegmentWriter {
  private open: OpenSegment | null = null;
  private readonly index: SegmentSummary[] = [];
  private readonly keys = new Set<string>();
  private readonly writers: LineWriter[] = [];

  constructor(
    readonly dir: string,
    private readonly fs: OutputFs = nodeFs,
  ) {
    this.fs.mkdirSync(dir, { recursive: true });
  }

  private uniqueKey(key: string): string {
    let unique = key;
    for (let n = 2; this.keys.has(unique); n++) unique = `${key}#${n}`;
    this.keys.add(unique);
    return unique;
  }

  private nextName(): string {
    return `${this.index.length}.tsv`;
  }

  /** One candidate's line (with its line break) of `file`, in the segment `key`, and its head. */
  write(key: string, file: string, line: string, head: Head, route: string, carriable: boolean): void {
    let open = this.open;
    if (!open || open.summary.key !== key) {
      this.closeOpen();
      const name = this.nextName();
      const writer = new LineWriter(path.join(this.dir, name), this.fs, true);
      this.writers.push(writer);
      open = {
        summary: {
          name,
          key: this.uniqueKey(key),
          files: 0,
          digest: '',
          bytes: 0,
          offered: 0,
          carriable: true,
          routes: [],
          ranks: {},
        },
        writer,
        digest: new FileDigest(),
        last: '',
        ranks: new Map(),
        routes: new Set(),
      };
      this.open = open;
      this.index.push(open.summary);
    }
    if (file !== open.last) {
      open.digest.add(file);
      open.last = file;
    }
    open.writer.write(line);
    const text = rankText(head);
    open.ranks.set(text, (open.ranks.get(text) ?? 0) + 1);
    if (head.k >= 0) {
      open.summary.offered++;
      open.routes.add(route);
    }
    if (!carriable) open.summary.carriable = false;
  }

  /** A segment of the published spool (in `from`), linked as it is: its name in this one. */
  link(from: string, summary: SegmentSummary): string {
    this.closeOpen();
    const name = this.nextName();
    const source = path.join(from, summary.name);
    const target = path.join(this.dir, name);
    try {
      this.fs.linkSync(source, target);
    } catch {
      // Where links fail, a copy: its bytes are the same.
      this.fs.writeFileSync(target, this.fs.readFileSync(source));
    }
    this.index.push({ ...summary, name, key: this.uniqueKey(summary.key) });
    return name;
  }

  private closeOpen(): void {
    const open = this.open;
    if (!open) return;
    this.open = null;
    open.writer.close();
    const s = open.summary;
    s.files = open.digest.files;
    s.digest = open.digest.digest();
    s.bytes = open.writer.bytes;
    s.routes = [...open.routes];
    s.ranks = Object.fromEntries(open.ranks);
  }

  /** Stop writing (idempotent). */
  close(): void {
    this.closeOpen();
    for (const w of this.writers) w.close();
  }

  /** Write the index: the spool is whole once `done()` says every segment's bytes are on file. */
  finish(): void {
    this.close();
    const lines = this.index.map((s) => `${JSON.stringify(s)}\n`).join('');
    this.fs.writeFileSync(path.join(this.dir, INDEX), lines);
  }

  done(): Promise<void> {
    this.close();
    return Promise.all(this.writers.map((w) => w.done())).then(() => undefined);
  }
}
