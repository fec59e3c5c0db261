/**
 * What a deploy uploads, as `fds build` works it out against the release the site last received
 * (`.fds-deployed`, netlify/deploy-upload.ts): everything for a first deploy; after a sync that changed
 * one match, only the files whose content is new — that match's body file among them — and the
 * function's archive; and the rule that keeps `/_b/*` on the body files the function fetches.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deployLine } from '../../src/cli/commands/build.js';
import { DEPLOYED_MARK } from '../../src/netlify/deploy-upload.js';
import { deployOrigins } from '../../src/netlify/function.js';
import { openStore } from '../../src/store/db.js';
import { packJson, packSpans, unpackJson } from '../../src/store/blob.js';
import { editStore, tempDir } from '../helpers/store.js';
import { buildInto, demoStore } from '../publish/helpers.js';

describe('the upload of a deploy', () => {
  it('is everything for a first deploy, and after one changed match only what changed', async () => {
    const store = await demoStore({ leagues: ['eng.1'] });
    const dir = tempDir('fds-deploy-');
    const out = path.join(dir, 'dist');
    const first = (await buildInto(store, out)).summary;
    const d1 = first.deploy!;
    expect(d1.against).toBeNull();
    expect(d1.upload).toBe(d1.firstUpload);
    expect(d1.bodies.files).toBe(first.functionBlobs!.count);
    expect(d1.newBodies).toEqual(d1.bodies);
    expect(d1.archive).toEqual({ bytes: first.functionSize!.total.zipped, changed: true });
    expect(deployLine(d1)).toMatch(
      /^deploy: first deploy: [\d,]+ files \/ \d+\.\d MB new to the site of [\d,]+ files \/ \d+\.\d MB \(\d+\.\d %\), bodies [\d,]+ \/ \d+\.\d MB new of [\d,]+ \/ \d+\.\d MB, function archive \d+\.\d MB \(changed\): uploads \d+\.\d MB, 100\.0 % of a first deploy's \d+\.\d MB$/,
    );
    // What the workflow writes once the site has the release.
    fs.writeFileSync(path.join(dir, DEPLOYED_MARK), `${first.release}\n`);
    const db = openStore(store);
    const match = db
      .prepare("SELECT match_id FROM match_summaries WHERE league_slug = 'eng.1' ORDER BY match_id LIMIT 1")
      .pluck()
      .get() as string;
    db.close();
    editStore(
      store,
      (db) => {
        const old = db
          .prepare("SELECT sections FROM match_summaries WHERE league_slug = 'eng.1' AND match_id = ?")
          .pluck()
          .get(match) as Buffer;
        const sections = JSON.parse(unpackJson(old)) as Record<string, unknown>;
        sections.news = [{ headline: 'edited' }];
        const json = JSON.stringify(sections);
        db.prepare(
          "UPDATE match_summaries SET sections = ?, section_spans = ?, hash = 'edited' WHERE league_slug = 'eng.1' AND match_id = ?",
        ).run(packJson(json), packSpans(Buffer.from(json)), match);
      },
      [['summary', 'eng.1', match]],
    );
    const next = (await buildInto(store, out)).summary;
    const d2 = next.deploy!;
    expect(d2.against).toBe(first.release);
    // The edited match's body file, its summary files, and the files every sync changes (the change
    // feed, meta, the manifest, build.json, the rules): a handful, not the release.
    expect(d2.newBodies.files).toBe(1);
    expect(d2.newFiles.files).toBeGreaterThan(1);
    expect(d2.newFiles.files).toBeLessThan(20);
    expect(d2.archive!.changed).toBe(true);
    expect(d2.upload).toBe(d2.newFiles.bytes + d2.archive!.bytes);
    expect(d2.firstUpload).toBeGreaterThan(d2.upload);
    expect(deployLine(d2)).toMatch(/^deploy against r-\d+: /);
  });

  it('counts a first deploy when the release the site last received is gone', async () => {
    const store = await demoStore({ leagues: ['eng.1'] });
    const dir = tempDir('fds-deploy-');
    fs.writeFileSync(path.join(dir, DEPLOYED_MARK), path.join(dir, '.dist.releases', 'r-999999'));
    const { summary } = await buildInto(store, path.join(dir, 'dist'));
    expect(summary.deploy).toMatchObject({ against: null, missing: path.join(dir, '.dist.releases', 'r-999999') });
    expect(summary.deploy!.upload).toBe(summary.deploy!.firstUpload);
  });

  it('keeps /_b/* on the body files, before the catch-all', async () => {
    const store = await demoStore({ leagues: ['eng.1'] });
    const { summary } = await buildInto(store, path.join(tempDir('fds-deploy-'), 'dist'));
    const rules = fs.readFileSync(path.join(summary.release, '_redirects'), 'utf8').trim().split('\n');
    const at = rules.indexOf('/_b/* /_b/:splat 200!');
    expect(at).toBeGreaterThan(0);
    expect(rules.at(-1)).toBe('/* /.netlify/functions/fds 200!');
    expect(at).toBe(rules.length - 2);
  });
});

describe("the function's addresses of its own deploy", () => {
  it('are the deploy permalink, then the site URL', () => {
    const req = new Request('https://x.test/.netlify/functions/fds', { headers: { 'x-nf-deploy-id': 'abc123' } });
    expect(deployOrigins(req, { site: { name: 'fds-site', url: 'https://api.example.com/' } })).toEqual([
      'https://abc123--fds-site.netlify.app',
      'https://api.example.com',
    ]);
    expect(deployOrigins(req, { deploy: { id: '../evil' }, site: { name: 'fds-site' } })).toEqual([]);
  });
});
