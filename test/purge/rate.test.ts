/**
 * A target that takes few requests (Cloudflare Free: five a minute) is never sent more than it
 * takes: tags over the rate stay pending and go with a later call, so a loop publishing more often
 * than the rate still converges. A 429 keeps its tags pending for as long as Retry-After says.
 * The clock is the test's; the requests are real, to a loopback stand-in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parsePurgeTarget } from '../../src/purge/parse.js';
import { Purger } from '../../src/purge/purger.js';
import type { StandIn } from './stand-in.js';
import { json, matchTags, startStandIn, stopStandIns } from './stand-in.js';

afterEach(stopStandIns);

const SECOND = 1000;
const MINUTE = 60 * SECOND;

async function cloudflareFree() {
  const api = await startStandIn();
  const clock = { t: 0 };
  const sentAt: number[] = [];
  const answer = api.answer;
  api.answer = (s) => {
    sentAt.push(clock.t);
    return answer(s);
  };
  const env = { CLOUDFLARE_API_TOKEN: 't', CLOUDFLARE_ZONE_ID: 'z', FDS_CLOUDFLARE_API_URL: api.url };
  const purger = new Purger([parsePurgeTarget('cloudflare', env)], {
    now: () => clock.t,
    sleep: async (ms) => {
      clock.t += ms;
    },
  });
  return { api, clock, sentAt, purger };
}

const tagsOf = (api: StandIn, i: number) => json(api.seen[i]!).tags as string[];

/** The most requests sent in any window of `windowMs`. */
function busiestWindow(sentAt: number[], windowMs: number): number {
  return Math.max(0, ...sentAt.map((t) => sentAt.filter((u) => u >= t && u < t + windowMs).length));
}

describe('Cloudflare Free (5 purge requests a minute)', () => {
  it('sends 250 tags in 3 requests, keeps what is over the rate pending, and sends it with a later call', async () => {
    const { api, clock, purger } = await cloudflareFree();
    const first = matchTags(250, 100_000);
    expect((await purger.purge(first)).targets[0]).toMatchObject({ purged: 250, requests: 3, pending: 0 });

    // Two requests left in this minute: 200 of the next 250 tags go, 50 wait for the window.
    const second = matchTags(250, 200_000);
    const report = (await purger.purge(second)).targets[0];
    expect(report).toMatchObject({ purged: 200, requests: 2, pending: 50, retryInMs: MINUTE });
    expect(report?.error).toBeUndefined();

    clock.t = 30 * SECOND;
    const third = matchTags(30, 300_000);
    expect((await purger.purge(third)).targets[0]).toMatchObject({ purged: 0, requests: 0, pending: 80 });
    expect(api.seen).toHaveLength(5);

    // The window has moved on: one request carries everything the earlier calls left behind.
    clock.t = MINUTE;
    expect((await purger.purge(['leagues'])).targets[0]).toMatchObject({ purged: 81, requests: 1, pending: 0 });
    expect(api.seen).toHaveLength(6);
    expect(tagsOf(api, 5)).toEqual([...second.slice(200), ...third, 'leagues']);
  });

  it('converges with a publish every 15 s after a backlog, never over 5 requests in any minute', async () => {
    const { clock, sentAt, purger } = await cloudflareFree();
    let pending = (await purger.purge(matchTags(900, 100_000))).targets[0]!.pending;
    expect(pending).toBe(400);
    const cycles: number[] = [];
    for (let cycle = 1; cycle <= 16 && pending > 0; cycle++) {
      clock.t = cycle * 15 * SECOND;
      pending = (await purger.purge(matchTags(40, 200_000 + cycle * 1000))).targets[0]!.pending;
      cycles.push(pending);
    }
    expect(pending).toBe(0);
    expect(busiestWindow(sentAt, MINUTE)).toBe(5);
    expect(cycles.length).toBeLessThan(16);
  });

  it('keeps the tags of a 429 pending for as long as Retry-After says, then sends them', async () => {
    const { api, clock, purger } = await cloudflareFree();
    api.answer = () => ({ status: 429, retryAfter: '30' });
    const tags = matchTags(20);
    expect((await purger.purge(tags)).targets[0]).toEqual({
      name: 'cloudflare',
      purged: 0,
      requests: 1,
      ms: 0,
      pending: 20,
      busy: false,
      error: 'HTTP 429',
      retryInMs: 30 * SECOND,
    });

    api.answer = () => ({});
    clock.t = 10 * SECOND;
    expect((await purger.purge(['leagues'])).targets[0]).toMatchObject({ requests: 0, pending: 21, error: 'HTTP 429' });
    expect(api.seen).toHaveLength(1);

    clock.t = 30 * SECOND;
    const report = (await purger.purge([])).targets[0];
    expect(report).toMatchObject({ purged: 21, requests: 1, pending: 0 });
    expect(report?.error).toBeUndefined();
    expect(tagsOf(api, 1)).toEqual([...tags, 'leagues']);
  });

  it('lets a one-shot run wait until every tag is sent, within the rate', async () => {
    const { clock, sentAt, purger } = await cloudflareFree();
    await purger.purge(matchTags(700));
    const report = (await purger.flush(10 * MINUTE)).targets[0];
    expect(report).toMatchObject({ purged: 200, requests: 2, pending: 0 });
    expect(sentAt).toEqual([0, 0, 0, 0, 0, MINUTE, MINUTE]);
    expect(clock.t).toBe(MINUTE);
  });

  it('gives up waiting at the deadline and reports what is still pending', async () => {
    const { clock, purger } = await cloudflareFree();
    await purger.purge(matchTags(700));
    const report = (await purger.flush(30 * SECOND)).targets[0];
    expect(report).toMatchObject({ purged: 0, requests: 0, pending: 200, retryInMs: 30 * SECOND });
    expect(clock.t).toBe(30 * SECOND);
  });
});
