/**
 * Reproducible builds: the same store gives byte-identical trees, whatever the output directory,
 * the concurrency, or whether the build was incremental or full.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ASSET_FILES } from '../../src/frontdoor/paths.js';
import { buildInto, demoStore, treeState } from './helpers.js';

const contents = (out: string) => Object.fromEntries([...treeState(out)].map(([file, s]) => [file, s.sha]));

let db: string;

beforeAll(async () => {
  db = await demoStore();
});

describe('reproducible build', () => {
  it(
    'gives byte-identical trees for the same store in different ' +
      'directories, rendered in one thread or two workers',
    async () => {
      const a = await buildInto(db, undefined, { workers: 0 });
      const b = await buildInto(db, undefined, { workers: 2 });
      expect(a.out).not.toBe(b.out);
      expect([a.summary.workers, b.summary.workers]).toEqual([0, 2]);
      // The rendered files, _redirects, _headers, the manifest, build.json, the front door's assets,
      // and the function's body files.
      const bodies = a.summary.functionBlobs!.count;
      expect(Object.keys(contents(a.out)).length).toBe(a.summary.files + 4 + ASSET_FILES.length + bodies);
      expect(contents(b.out)).toEqual(contents(a.out));
    },
  );

  it('gives the same tree from a full rebuild as from an incremental one', async () => {
    const { out } = await buildInto(db);
    const first = contents(out);
    const { summary } = await buildInto(db, out, { full: true });
    expect(summary.published).toBe(true);
    expect(contents(out)).toEqual(first);
  });
});
