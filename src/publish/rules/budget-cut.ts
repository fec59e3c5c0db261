/**
 * The literal rule candidates a budget may still admit, held in memory while a build spools them
 * all (rules.ts): admission takes the lowest priorities first, so once `budget` candidates of
 * priority below P are held, no candidate of priority P or above can ever be admitted, and those are
 * let go. What is held stays near the budget however large the store, and the build does not read
 * the spool back (53 MB at demo scale 4) to find the few thousand lines it admits.
 */

/** Where admission stops (rules.ts `cutoff`): every candidate below `below`, and the first `atCut` at it. */
export interface Cut {
  below: number;
  atCut: number;
}

/** Which priorities get every candidate, and how many of the next one fit in `room`, given the count of each. */
export function cutoff(perPriority: ReadonlyMap<number, number>, room: number): Cut {
  let left = room;
  for (const p of [...perPriority.keys()].sort((a, b) => a - b)) {
    const n = perPriority.get(p)!;
    if (n > left) return { below: p, atCut: left };
    left -= n;
  }
  return { below: Number.POSITIVE_INFINITY, atCut: 0 };
}

interface Held {
  /** The candidate's place among all those offered: the order the rules are written in. */
  seq: number;
  /** A copy: a line read from a file shares memory with the whole chunk it was read in. */
  line: Buffer;
}

export class Admission {
  private readonly held = new Map<number, Held[]>();
  private count = 0;
  private offered = 0;
  /** The highest priority held. */
  private worst = Number.NEGATIVE_INFINITY;
  /** No candidate at this priority or above can be admitted. */
  private ceiling = Number.POSITIVE_INFINITY;

  constructor(private readonly budget: number) {}

  /** A spooled candidate's line (with its line break) and its priority, in spool order. */
  offer(p: number, line: string): void {
    const seq = this.offered++;
    if (p >= this.ceiling) return;
    this.keep(p, seq, line);
    if (p > this.worst) this.worst = p;
    // The worst priority held goes once the better ones alone fill the budget.
    while (this.held.size > 1 && this.count - this.held.get(this.worst)!.length >= this.budget) {
      this.count -= this.held.get(this.worst)!.length;
      this.held.delete(this.worst);
      this.ceiling = this.worst;
      this.worst = Math.max(...this.held.keys());
    }
  }

  /** Places in the offer order for `n` candidates offered later (`hold`), in a run. */
  reserve(n: number): number {
    const first = this.offered;
    this.offered += n;
    return first;
  }

  /**
   * A candidate offered late, at the place `reserve` kept for it, once the counts of every priority
   * set the cut: held only if the cut may admit it. The pruning in `offer` let go of no priority the
   * cut admits (the candidates offered in time alone filled the budget below it).
   */
  hold(p: number, seq: number, line: string, cut: Cut): void {
    if (p <= cut.below && p < this.ceiling) this.keep(p, seq, line);
  }

  private keep(p: number, seq: number, line: string): void {
    let bucket = this.held.get(p);
    if (!bucket) {
      bucket = [];
      this.held.set(p, bucket);
    }
    bucket.push({ seq, line: Buffer.from(line, 'utf8') });
    this.count++;
  }

  /**
   * The admitted candidates' lines in spool order, given the cut the counts of every priority set:
   * made one at a time, as the caller writes each out.
   */
  *admitted(cut: Cut): Generator<string> {
    const out: Held[] = [];
    for (const [p, bucket] of this.held) {
      // Those held late (`hold`) go in their places: at the cut, the first in order are admitted.
      if (p === cut.below) bucket.sort((a, b) => a.seq - b.seq);
      const n = p < cut.below ? bucket.length : p === cut.below ? Math.min(cut.atCut, bucket.length) : 0;
      for (let i = 0; i < n; i++) out.push(bucket[i]!);
    }
    out.sort((a, b) => a.seq - b.seq);
    // Without the line break (a byte: the lines are ASCII-safe, rule-spool.ts).
    for (const h of out) yield h.line.toString('utf8', 0, h.line.length - 1);
  }
}
