/** The compact index a server keeps of a release's manifest. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestLine } from '../../src/release/manifest.js';
import type { ManifestEntry } from '../../src/release/manifest.js';
import { ReleaseIndex } from '../../src/server/release-index.js';
import { tempDir } from '../helpers/store.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const entry = (file: string, keys: string[], over: Partial<ManifestEntry> = {}): ManifestEntry => ({
  file,
  request: `/${file}`,
  aliases: [],
  keys,
  status: 200,
  etag: `"${file.length}"`,
  cacheControl: 'public, max-age=60',
  contentType: JSON_TYPE,
  bytes: 10,
  ...over,
});

function release(entries: ManifestEntry[]): string {
  const dir = tempDir('fds-index-');
  fs.writeFileSync(path.join(dir, 'manifest.ndjson'), entries.map(manifestLine).join(''));
  return dir;
}

describe('ReleaseIndex', () => {
  it('finds a file by each of its request keys, with its ETag, size and headers', () => {
    const index = ReleaseIndex.load(
      release([
        entry('_s/a.json', ['ka', 'ka-alias'], { etag: '"A"', bytes: 123 }),
        entry('_s/b.json', ['kb'], { cacheControl: 'public, max-age=4' }),
      ]),
    );
    const a = index.find('ka');
    expect(index.find('ka-alias')).toBe(a);
    expect([index.file(a), index.etag(a), index.bytes(a)]).toEqual(['_s/a.json', '"A"', 123]);
    expect(index.headers(index.find('kb'))).toMatchObject({
      'Content-Type': JSON_TYPE,
      'Cache-Control': 'public, max-age=4',
      'Access-Control-Allow-Origin': '*',
    });
    expect(index.find('nope')).toBe(-1);
  });

  it('shares one frozen header set among the files that have the same headers', () => {
    const index = ReleaseIndex.load(
      release([
        entry('_s/a.json', ['ka']),
        entry('_s/b.json', ['kb']),
        entry('_s/c.json', ['kc'], { cacheControl: 'x' }),
      ]),
    );
    const [a, b, c] = ['ka', 'kb', 'kc'].map((k) => index.headers(index.find(k)));
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(Object.isFrozen(a)).toBe(true);
  });

  it(
    'skips entries it cannot serve safely: paths leaving the ' + 'release, header values that would break a response',
    () => {
      const index = ReleaseIndex.load(
        release([
          entry('_s/../../etc/passwd', ['up']),
          entry('elsewhere/a.json', ['outside']),
          entry('_s/a.json', ['crlf'], { cacheControl: 'public\r\nSet-Cookie: x=1' }),
          entry('_s/b.json', ['etag'], { etag: 'unquoted' }),
          entry('_s/c.json', ['error'], { status: 404 }),
          entry('_s/d.json', ['size'], { bytes: -1 }),
          entry('_s/ok.json', ['ok']),
        ]),
      );
      expect(['up', 'outside', 'crlf', 'etag', 'error', 'size'].map((k) => index.find(k))).toEqual([
        -1, -1, -1, -1, -1, -1,
      ]);
      expect(index.files).toBe(1);
      expect(index.file(index.find('ok'))).toBe('_s/ok.json');
    },
  );

  it('throws when the release has no manifest (a release pruned under the server)', () => {
    expect(() => ReleaseIndex.load(tempDir('fds-index-'))).toThrow();
  });
});
