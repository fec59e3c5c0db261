import { describe, expect, it } from 'vitest';
import { HttpClient, HttpError } from '../../src/sync/http/fetch-json.js';
import { parseRetryAfter, retryDelay } from '../../src/sync/http/retry-policy.js';
import { fault, faultsByPath, outage } from '../helpers/espn-standin.js';
import { FAST_HTTP, useStandIn } from '../helpers/espn-sync.js';

const BOARD = '/apis/site/v2/sports/soccer/eng.1/scoreboard?dates=20260321';
const asIs = (body: unknown) => body;

describe('retry policy', () => {
  it('reads Retry-After as seconds or as an HTTP date, and ignores anything else', () => {
    const now = Date.parse('2026-03-22T15:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Sun, 22 Mar 2026 15:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Sun, 22 Mar 2026 14:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('backs off exponentially with full jitter under a cap, and obeys Retry-After up to its own cap', () => {
    const policy = { baseMs: 100, maxMs: 1000, retryAfterMaxMs: 5000 };
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, undefined, policy, () => 0.999))).toEqual([99, 199, 399, 799, 999]);
    expect(retryDelay(3, undefined, policy, () => 0)).toBe(0);
    expect(retryDelay(1, 2000, policy, () => 0.5)).toBe(2000);
    expect(retryDelay(1, 60_000, policy, () => 0.5)).toBe(5000);
  });
});

describe('HTTP transport', () => {
  const standIn = useStandIn();

  it('sends an honest User-Agent naming the service and its version', async () => {
    await new HttpClient(FAST_HTTP).getJson(standIn().url + BOARD, asIs);
    expect([...standIn().stats.userAgents]).toEqual([
      // The form ESPN is reported to accept: name/version (+URL), the URL from package.json.
      expect.stringMatching(/^football-data-service\/\d+\.\d+\.\d+ \(\+https:\/\/\S+\)$/),
    ]);
  });

  it('asks an identical request already in flight once, and gives both callers its answer', async () => {
    standIn().delayMs = 30;
    const client = new HttpClient(FAST_HTTP);
    const [a, b] = await Promise.all([
      client.getJson(standIn().url + BOARD, asIs, { kind: 'board-day' }),
      client.getJson(standIn().url + BOARD, asIs, { kind: 'board-day' }),
    ]);
    expect(a).toEqual(b);
    expect(standIn().stats.total).toBe(1);
    expect(client.takeAsked()).toEqual({ 'board-day': { requests: 1, bytes: expect.any(Number), notModified: 0 } });
    // Once answered, the same request is asked again.
    await client.getJson(standIn().url + BOARD, asIs);
    expect(standIn().stats.total).toBe(2);
  });

  it('sends nothing more once a request is answered 403, until unblocked', async () => {
    standIn().faults = faultsByPath({ '/teams': [fault.status(403)] });
    const client = new HttpClient(FAST_HTTP);
    await expect(client.getJson(`${standIn().url}/apis/site/v2/sports/soccer/eng.1/teams`, asIs)).rejects.toThrow(
      /HTTP 403/,
    );
    expect(client.blocked).toBe(true);
    await expect(client.getJson(standIn().url + BOARD, asIs)).rejects.toThrow(/not asked: .*403/);
    expect(standIn().stats.total).toBe(1);
    client.unblock();
    expect(await client.getJson(standIn().url + BOARD, asIs)).toBeDefined();
  });

  it('reads a 404 as "not available" after one request', async () => {
    const got = await new HttpClient(FAST_HTTP).getJson(
      `${standIn().url}/apis/site/v2/sports/soccer/eng.1/summary?event=404404`,
      asIs,
    );
    expect(got).toBeUndefined();
    expect(standIn().stats.total).toBe(1);
  });

  it('fails at once on a 4xx other than 404, without retrying', async () => {
    // A query string ESPN would not understand: the stand-in answers 400.
    const err = await new HttpClient(FAST_HTTP)
      .getJson(`${standIn().url}/apis/site/v2/sports/soccer/eng.1/scoreboard?date=1`, asIs)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).message).toBe('HTTP 400 Bad Request');
    expect(standIn().stats.total).toBe(1);
  });

  it(
    'retries a timeout, a stalled body, a 5xx, an HTML page and a ' + 'truncated body, then returns the real payload',
    async () => {
      standIn().faults = faultsByPath({
        [BOARD]: [fault.stall, fault.stallBody, fault.status(502), fault.html, fault.truncate, fault.cut],
      });
      const got = await new HttpClient({ ...FAST_HTTP, retries: 6 }).getJson(standIn().url + BOARD, asIs);
      expect(got).toMatchObject({ events: [{ id: '9001' }, { id: '9002' }, { id: '9003' }] });
      expect(standIn().stats.perPath.get(BOARD)).toBe(7);
    },
  );

  it('waits as long as Retry-After says before asking again', async () => {
    standIn().faults = faultsByPath({ [BOARD]: [fault.status(429, '1')] });
    await new HttpClient(FAST_HTTP).getJson(standIn().url + BOARD, asIs);
    const [first, second] = standIn().log;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('gives up after its retries and says why', async () => {
    standIn().faults = faultsByPath({ [BOARD]: Array(10).fill(fault.html) });
    const err = await new HttpClient({ ...FAST_HTTP, retries: 2 })
      .getJson(standIn().url + BOARD, asIs)
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('not JSON (content-type text/html) (gave up after 3 attempts)');
    expect(standIn().stats.perPath.get(BOARD)).toBe(3);
  });

  it('retries a body that fails validation and never hands it to the caller', async () => {
    const seen: unknown[] = [];
    let calls = 0;
    const parse = (body: unknown) => {
      seen.push(body);
      if (++calls < 3) throw new Error('missing events');
      return body;
    };
    const got = await new HttpClient(FAST_HTTP).getJson(standIn().url + BOARD, parse);
    expect(calls).toBe(3);
    expect(got).toBe(seen[2]);
  });

  it('does not hold a request slot while waiting to retry', async () => {
    // One slot: the second request is answered while the first waits out its Retry-After.
    standIn().faults = faultsByPath({ [BOARD]: [fault.status(503, '1')] });
    const client = new HttpClient({ ...FAST_HTTP, concurrency: 1 });
    const done: string[] = [];
    await Promise.all([
      client.getJson(standIn().url + BOARD, asIs).then(() => done.push('retried')),
      new Promise((r) => setTimeout(r, 100))
        .then(() => client.getJson(`${standIn().url}/apis/site/v2/sports/soccer/eng.1/teams`, asIs))
        .then(() => done.push('other')),
    ]);
    expect(done).toEqual(['other', 'retried']);
  });

  it('stops retrying once the upstream looks down, and retries again after a success', async () => {
    standIn().faults = outage;
    const client = new HttpClient({ ...FAST_HTTP, retries: 3, outageThreshold: 2 });
    const get = (date: string) =>
      client
        .getJson(`${standIn().url}/apis/site/v2/sports/soccer/eng.1/scoreboard?dates=${date}`, asIs)
        .catch((e: Error) => e.message);
    await get('20260101');
    await get('20260102');
    expect(client.outage).toBe(true);
    expect(await get('20260103')).toBe(
      'HTTP 500 Internal Server Error (1 attempt: upstream looks down, retries suspended)',
    );
    expect(standIn().stats.total).toBe(4 + 4 + 1);
    standIn().faults = undefined;
    await get('20260321');
    expect(client.outage).toBe(false);
  });
});
