import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { carriedLine, spoolLine, uncarry, unspool } from '../../src/publish/rules/rule-spool.js';
import type { Spooled } from '../../src/publish/rules/rule-spool.js';

const token = fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/);
const spooled: fc.Arbitrary<Spooled> = fc.record({
  file: token.map((t) => `_s/get/soccer/${t}.json`),
  k: fc.integer({ min: -1, max: 3 }),
  shortest: fc.constantFrom(0 as const, 1 as const),
  level: fc.constantFrom('league' as const, 'match' as const),
  hotq: fc.oneof(fc.constantFrom('0', '1', '?'), fc.stringMatching(/^\d{8}$/)),
  league: fc.oneof(fc.constant(''), token),
  id: fc.oneof(fc.constant(''), fc.stringMatching(/^\d{1,10}$/)),
  day: fc.oneof(fc.constant(''), fc.stringMatching(/^\d{8}$/)),
  live: fc.boolean(),
  route: token,
  etag: token.map((t) => `"${t}"`),
  cacheControl: fc.constantFrom('public, max-age=60', 'public, max-age=30'),
  request: fc.array(token, { maxLength: 3 }).map((q) => `/get/soccer/x${q.map((t) => ` k=${t}`).join('')}`),
});

describe('a spooled rule candidate', () => {
  it('reads back as it was spooled', () => {
    fc.assert(
      fc.property(spooled, (s) => {
        expect(unspool(spoolLine(s).slice(0, -1))).toEqual(s);
      }),
    );
  });

  it("carried over, is the line as it was, or with its match's standing as it is now", () => {
    fc.assert(
      fc.property(spooled, fc.stringMatching(/^\d{8}$/), fc.boolean(), fc.boolean(), (s, day, live, moved) => {
        const line = spoolLine(s);
        const c = uncarry(line.slice(0, -1))!;
        expect(c).not.toBeNull();
        expect(carriedLine(c, false)).toBe(line);
        if (moved) Object.assign(c, { day, live });
        expect(unspool(carriedLine(c, moved).slice(0, -1))).toEqual(moved ? { ...s, day, live } : s);
      }),
    );
  });

  it('is not carried over from a line cut off before its route ends', () => {
    fc.assert(
      fc.property(spooled, (s) => {
        const line = spoolLine(s).slice(0, -1);
        const routeEnds = line.split('\t').slice(0, 10).join('\t').length;
        for (let cut = 0; cut <= routeEnds; cut++) expect(uncarry(line.slice(0, cut)), `cut at ${cut}`).toBeNull();
      }),
    );
  });
});
