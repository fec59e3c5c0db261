import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Admission, cutoff } from '../../src/publish/rules/budget-cut.js';

/** What the build admitted when it read the whole spool back: every line in order, by the cut. */
function admittedByReadingAll(lines: Array<{ p: number; line: string }>, room: number): string[] {
  const counts = new Map<number, number>();
  for (const { p } of lines) counts.set(p, (counts.get(p) ?? 0) + 1);
  const cut = cutoff(counts, room);
  let atCut = 0;
  return lines.filter(({ p }) => p < cut.below || (p === cut.below && atCut++ < cut.atCut)).map((l) => l.line);
}

describe('admission within a rule budget', () => {
  it('admits exactly what reading every spooled candidate back would, in spool order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 400 }),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 0, max: 40 }),
        (priorities, budget, spare) => {
          const room = Math.max(0, budget - spare);
          const lines = priorities.map((p, i) => ({ p, line: `_s/f${i}.json\t${p}\trest-of-line-${i}` }));
          const admission = new Admission(budget);
          for (const l of lines) admission.offer(l.p, `${l.line}\n`);
          const counts = new Map<number, number>();
          for (const { p } of lines) counts.set(p, (counts.get(p) ?? 0) + 1);
          expect([...admission.admitted(cutoff(counts, room))]).toEqual(admittedByReadingAll(lines, room));
        },
      ),
    );
  });

  it('admits the same when runs of candidates are held late in the places reserved for them', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 12 }), fc.boolean()), { maxLength: 300 }),
        fc.integer({ min: 1, max: 80 }),
        (candidates, budget) => {
          const lines = candidates.map(([p, late], i) => ({ p, late, line: `_s/f${i}.json\t${p}` }));
          const admission = new Admission(budget);
          const late: Array<{ p: number; seq: number; line: string }> = [];
          for (const l of lines) {
            if (l.late) late.push({ p: l.p, seq: admission.reserve(1), line: `${l.line}\n` });
            else admission.offer(l.p, `${l.line}\n`);
          }
          const counts = new Map<number, number>();
          for (const { p } of lines) counts.set(p, (counts.get(p) ?? 0) + 1);
          const cut = cutoff(counts, budget);
          for (const h of late) admission.hold(h.p, h.seq, h.line, cut);
          expect([...admission.admitted(cut)]).toEqual(admittedByReadingAll(lines, budget));
        },
      ),
    );
  });

  it('holds about a budget of candidates however many are offered', () => {
    const admission = new Admission(100);
    // Worse and worse priorities, then a run of better ones: what the better ones displace is let go.
    for (let i = 0; i < 50_000; i++) admission.offer(i % 500, `line ${i}\n`);
    const held = (admission as unknown as { count: number }).count;
    expect(held).toBeLessThan(300);
  });

  it('admits the lowest priorities first, in spool order, the last priority in part', () => {
    const admission = new Admission(3);
    for (const p of [5, 1, 1, 5, 0]) admission.offer(p, `p${p}\n`);
    const counts = new Map([
      [0, 1],
      [1, 2],
      [5, 2],
    ]);
    expect([...admission.admitted(cutoff(counts, 2))]).toEqual(['p1', 'p0']);
    expect([...admission.admitted(cutoff(counts, 3))]).toEqual(['p1', 'p1', 'p0']);
  });
});
