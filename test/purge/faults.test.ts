/**
 * A purge target that is down or slow never holds the publishing loop up: purge() resolves within
 * its wait (a little over the request timeout), reports the failure, and keeps the tags pending
 * for the next call, which sends them once the target is back. A target still busy with an earlier
 * call's request is not waited for at all, so it delays no other target's report.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parsePurgeTarget } from '../../src/purge/parse.js';
import { Purger } from '../../src/purge/purger.js';
import { formatPurgeReport } from '../../src/purge/report.js';
import type { Answer, StandIn } from './stand-in.js';
import { json, startStandIn, stopStandIns } from './stand-in.js';

afterEach(stopStandIns);

const TIMEOUT_MS = 300;
const TAGS = ['match-eng.1-9001', 'scoreboard-eng.1-20260321', 'leagues'];

const varnish = (s: StandIn) => parsePurgeTarget(`varnish:${s.url}`, {});
const fastly = (s: StandIn) =>
  parsePurgeTarget('fastly', { FASTLY_API_TOKEN: 't', FASTLY_SERVICE_ID: 's', FDS_FASTLY_API_URL: s.url });

async function timed<T>(work: Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work;
  return [value, performance.now() - started];
}

const faults: Array<[string, (s: StandIn) => Promise<void>, string]> = [
  ['refuses connections', (s) => s.stop(), 'network error (ECONNREFUSED)'],
  [
    'answers 500',
    async (s) => {
      s.answer = () => ({ status: 500 });
    },
    'HTTP 500',
  ],
  [
    'never answers',
    async (s) => {
      s.answer = (): Answer => 'never';
    },
    `timeout (no answer within ${TIMEOUT_MS} ms)`,
  ],
];

describe('a purge target that is down', () => {
  for (const [fault, inject, reason] of faults) {
    it(`that ${fault}: purge() resolves promptly, keeps the tags, and sends them once it is back`, async () => {
      const standIn = await startStandIn();
      await inject(standIn);
      const purger = new Purger([varnish(standIn)], { timeoutMs: TIMEOUT_MS });

      const [report, ms] = await timed(purger.purge(TAGS));
      expect(ms).toBeLessThan(TIMEOUT_MS + 500);
      expect(report.targets[0]).toMatchObject({ purged: 0, requests: 1, pending: 3, busy: false, error: reason });
      expect(formatPurgeReport(report)).toBe(`purge: varnish failed (${reason}), 3 tags pending`);

      // Still down: the next publish tries again, with its own tags added.
      const [again] = await timed(purger.purge(['clubs-eng.1']));
      expect(again.targets[0]).toMatchObject({ purged: 0, requests: 1, pending: 4, error: reason });

      if (fault === 'refuses connections') await standIn.listen();
      standIn.answer = () => ({});
      const before = standIn.seen.length;
      const back = await purger.purge(['leagues']);
      expect(back.targets[0]).toMatchObject({ purged: 4, requests: 1, pending: 0 });
      expect(back.targets[0]?.error).toBeUndefined();
      expect(standIn.seen.slice(before).map((s) => s.headers['xkey-purge'])).toEqual([
        'match-eng.1-9001 scoreboard-eng.1-20260321 leagues clubs-eng.1',
      ]);
      expect(formatPurgeReport(back)).toMatch(/^purged 4 tags in \d+ ms$/);
    });
  }

  it('fails only its own target: the others purge in the same call', async () => {
    const [good, bad] = await Promise.all([startStandIn(), startStandIn(() => ({ status: 503 }))]);
    const purger = new Purger([varnish(good), fastly(bad)], { timeoutMs: TIMEOUT_MS });
    const report = await purger.purge(TAGS);
    expect(report.targets.map((t) => [t.name, t.purged, t.pending, t.error])).toEqual([
      ['varnish', 3, 0, undefined],
      ['fastly', 0, 3, 'HTTP 503'],
    ]);
    expect(formatPurgeReport(report)).toMatch(
      /^purge: varnish 3 tags in \d+ ms; fastly failed \(HTTP 503\), 3 tags pending$/,
    );
  });
});

describe('a slow purge target', () => {
  it("does not delay a later call's report for the other targets while its request is in flight", async () => {
    const [fast, slow] = await Promise.all([startStandIn(), startStandIn(() => ({ delayMs: 1000 }))]);
    const purger = new Purger([varnish(fast), fastly(slow)], { timeoutMs: 5000 });

    const first = purger.purge(TAGS); // not awaited: the slow request stays in flight
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([fast.seen.length, slow.inFlight]).toEqual([1, 1]);
    const [second, ms] = await timed(purger.purge(['clubs-eng.1']));
    expect(ms).toBeLessThan(250);
    expect(second.targets).toEqual([
      expect.objectContaining({ name: 'varnish', pending: 0, busy: false }),
      { name: 'fastly', purged: 0, requests: 0, ms: 0, pending: 4, busy: true },
    ]);
    expect(formatPurgeReport(second)).toMatch(/; fastly busy \(request in flight\), 4 tags pending$/);

    await first;
    expect(slow.seen).toHaveLength(2); // the first call's request, then the tag the second one added
    expect(json(slow.seen[1]!).surrogate_keys).toEqual(['clubs-eng.1']);
    expect(slow.maxInFlight).toBe(1);
  });

  it('is reported busy when it outlasts the wait, and what it purged then goes into the next report', async () => {
    const [fast, slow] = await Promise.all([startStandIn(), startStandIn(() => ({ delayMs: 600 }))]);
    const purger = new Purger([varnish(fast), fastly(slow)], { timeoutMs: 5000, waitMs: 100 });

    const [report, ms] = await timed(purger.purge(TAGS));
    expect(ms).toBeLessThan(400);
    expect(report.targets.map((t) => [t.name, t.purged, t.pending, t.busy])).toEqual([
      ['varnish', 3, 0, false],
      ['fastly', 0, 3, true],
    ]);

    await new Promise((resolve) => setTimeout(resolve, 800));
    const later = await purger.purge([]);
    expect(later.targets.map((t) => [t.name, t.purged, t.requests, t.pending, t.busy])).toEqual([
      ['varnish', 0, 0, 0, false],
      ['fastly', 3, 1, 0, false],
    ]);
    expect(slow.maxInFlight).toBe(1);
  });
});
