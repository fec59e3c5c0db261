/**
 * The API contract, answered from a built tree: through the generated Netlify rules (what the CDN
 * serves, with the fallback behind it), through the edge router and then the rules, and by the
 * static-first server. Each target must actually answer a good share of the cases from files, or the
 * suite would prove nothing.
 */
import { describe, expect, it } from 'vitest';
import { contractSuite } from '../api/contract-suite.js';
import { clock } from '../api/helpers/api-store.js';
import { cdnTarget, staticServerTarget } from './helpers.js';
import type { Served } from './helpers.js';

describe('API contract: built tree through the generated rules', () => {
  const served: Served = { fromFiles: 0, other: 0 };
  contractSuite(cdnTarget(clock, served));
  it('answered many of the cases from files', () => {
    expect(served.fromFiles).toBeGreaterThan(30);
    expect(served.other).toBeGreaterThan(30);
  });
});

describe('API contract: built tree through the edge router, then the generated rules', () => {
  const served: Served = { fromFiles: 0, other: 0 };
  contractSuite(cdnTarget(clock, served, { build: { router: 'edge' }, name: 'cdn (edge router)' }));
  it('answered many of the cases from files', () => {
    expect(served.fromFiles).toBeGreaterThan(30);
    expect(served.other).toBeGreaterThan(30);
  });
});

describe('API contract: static-first server over a built tree', () => {
  const served: Served = { fromFiles: 0, other: 0 };
  contractSuite(staticServerTarget(clock, served));
  it('answered many of the cases from files', () => {
    expect(served.fromFiles).toBeGreaterThan(30);
    expect(served.other).toBeGreaterThan(30);
  });
});
