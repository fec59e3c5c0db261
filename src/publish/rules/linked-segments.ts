/**
 * The spool segments a build links whole from the published build's spool (spool-segments.ts):
 * their candidates counted from their summaries — priority and heat worked out once per rank, as
 * segments share most of their ranks — and their lines read back only when the budget's cut may
 * admit one of them.
 */
import nodeFs from 'node:fs';
import type { OutputFs } from '../../util/lines.js';
import type { Admission, Cut } from './budget-cut.js';
import type { ReachCount, ReachPolicy } from '../plan/reach.js';
import { uncarry } from './rule-spool.js';
import type { SegmentSummary } from './spool-segments.js';
import { parseRank } from './spool-segments.js';
import { segmentLines } from './spool-reader.js';

/** What the rule planner counts of every candidate, linked or not. */
export interface Tally {
  perPriority: Map<number, number>;
  counted: ReachCount;
  addRoute(name: string): void;
}

interface Ranked {
  shortest: boolean;
  hot: boolean;
  offered: boolean;
  p: number;
}

export class LinkedSegments {
  /** The linked segments with literal candidates: their first place in the admission order, and their best priority. */
  private readonly linked: Array<{ name: string; first: number; best: number }> = [];
  private readonly ranks = new Map<string, Ranked>();

  constructor(
    private readonly reach: ReachPolicy,
    private readonly admission: Admission,
    private readonly tally: Tally,
  ) {}

  /** A segment linked as `name` in the new spool. */
  add(name: string, summary: SegmentSummary): void {
    // Its literal candidates' places in the admission order, as if each had been offered.
    const first = this.admission.reserve(summary.offered);
    const { perPriority, counted } = this.tally;
    let best = Number.POSITIVE_INFINITY;
    for (const text in summary.ranks) {
      const n = summary.ranks[text]!;
      const { shortest, hot, offered, p } = this.ranked(text);
      if (shortest) {
        counted.requests += n;
        if (hot) counted.hot += n;
      }
      if (!offered) continue;
      perPriority.set(p, (perPriority.get(p) ?? 0) + n);
      if (p < best) best = p;
    }
    for (const route of summary.routes) this.tally.addRoute(route);
    if (best < Number.POSITIVE_INFINITY) this.linked.push({ name, first, best });
  }

  private ranked(text: string): Ranked {
    let known = this.ranks.get(text);
    if (!known) {
      const r = parseRank(text);
      const standing = { ...r, league: '', id: '' };
      const shortest = r.shortest === 1;
      const hot = shortest && this.reach.hotOf(standing);
      known = { shortest, hot, offered: r.offered, p: this.reach.priorityOf(standing, shortest, hot) };
      this.ranks.set(text, known);
    }
    return known;
  }

  /** Hold the linked candidates `cut` may admit (of the spool in `dir`), in their places in the admission order. */
  holdAdmitted(dir: string, cut: Cut, fs: OutputFs = nodeFs): void {
    for (const { name, first, best } of this.linked) {
      if (best > cut.below) continue;
      let seq = first;
      for (const line of segmentLines(dir, name, fs)) {
        const c = uncarry(line);
        if (!c) throw new Error(`${name}: not a spooled rule candidate: ${JSON.stringify(line.slice(0, 200))}`);
        if (c.k < 0) continue;
        const hot = c.shortest === 1 && this.reach.hotOf(c);
        this.admission.hold(this.reach.priorityOf(c, c.shortest === 1, hot), seq++, `${line}\n`, cut);
      }
    }
  }
}
