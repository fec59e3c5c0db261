/** A store that exists but was never synced: every endpoint answers honestly empty, nothing invented. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreReader } from '../../src/store/read/reader.js';
import { buildEmptyStore, clock, openReader } from './helpers/api-store.js';
import { renderUrl } from './helpers/prerendered.js';

let store: StoreReader;
beforeAll(() => {
  store = openReader(buildEmptyStore());
});
afterAll(() => store.close());

const get = (url: string) => {
  const res = renderUrl(store, clock, url);
  return { status: res.status, body: JSON.parse(res.body.toString()) };
};

describe('an empty store', () => {
  it('lists the 16 leagues without data, and no generation time', () => {
    const { body } = get('/get/soccer/leagues');
    expect(body.meta).toEqual({ kind: 'club', availableOnly: false, count: 16, generatedAt: null });
    expect(
      body.leagues.every(
        (l: { coverage: { hasData: boolean }; season: unknown }) => !l.coverage.hasData && l.season === null,
      ),
    ).toBe(true);
    expect(get('/get/soccer/leagues?available=true').body.leagues).toEqual([]);
  });

  it('has meta with zero counts and no sync', () => {
    const { body } = get('/get/soccer/meta');
    expect(body.service.dataSource).toBeNull();
    expect([body.coverage.matches, body.lastSuccessfulSyncAt, body.generatedAt]).toEqual([0, null, null]);
  });

  it('answers lists with empty lists and details with 404', () => {
    expect(get('/get/soccer/eng.1/scoreboard').body.events).toEqual([]);
    expect(get('/get/soccer/eng.1/fixtures').body).toMatchObject({ count: 0, pageCount: 0, events: [] });
    expect(get('/get/soccer/eng.1/clubs').body.clubs).toEqual([]);
    expect(get('/get/soccer/eng.1/standings').body).toMatchObject({ season: null, children: [] });
    expect(get('/get/soccer/eng.1/events/1')).toEqual({ status: 404, body: { error: 'Match not found' } });
    expect(get('/get/soccer/eng.1/clubs/1')).toEqual({ status: 404, body: { error: 'Club not found' } });
  });
});
