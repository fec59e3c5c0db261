/**
 * What a Netlify deploy uploads (docs/deploying.md, "What a deploy uploads"): a demo store synced at the
 * reference noon (a matchday with matches under way) and its full build, deployed as a first deploy;
 * then a routine sync one demo minute later and the incremental build after it, deployed against the
 * first — each as `fds build` works it out (netlify/deploy-upload.ts: files by Netlify's digest rule,
 * the body files among them, the function's archive when it changed). The goal (issue 50, item 3): the
 * routine deploy uploads at most 5 % of what the first one does.
 *
 * Beside the shape shipped, the same two releases priced as the other shapes would ship them:
 * - deploy-scoped Netlify Blobs (the shape before): every body uploaded again by every deploy;
 * - a site-wide Blobs store with content-addressed keys: only bodies of new digests, the same bytes as
 *   the body files (it differs in what it takes to run, not in what it uploads);
 * - no body files (the function would read the pre-rendered JSON): the files without `_b/`.
 *
 *   node --import tsx bench/deploy-upload.ts [--weight light|real] [--scale 1] [--today 20260321] [--dir DIR]
 *
 * Without --weight, the demo's default weight.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { deployLine } from '../src/cli/commands/build.js';
import type { DeployUpload } from '../src/netlify/deploy-upload.js';
import { DEPLOYED_MARK } from '../src/netlify/deploy-upload.js';
import { build } from '../src/netlify/build.js';
import { StoreReader } from '../src/store/read/reader.js';
import type { DemoWeight } from '../src/sync/providers/demo/index.js';
import { demoReferenceInstant } from '../src/sync/providers/demo/index.js';
import { mb } from '../src/util/thousands.js';
import { BENCH_TODAY, syncDemo, syncDemoRoutine } from './demo.js';
import { recordGoals } from './goals.js';
import { textTable } from './table.js';

const { values } = parseArgs({
  options: {
    weight: { type: 'string' },
    scale: { type: 'string', default: '1' },
    today: { type: 'string', default: BENCH_TODAY },
    dir: { type: 'string' },
  },
});
const weight = values.weight as DemoWeight | undefined;
const scale = Number(values.scale);
const GOAL = 0.05;
const dir = values.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fds-deploy-'));
const db = path.join(dir, 'store.sqlite');
const out = path.join(dir, 'dist');
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;

async function buildOnce(): Promise<{ deploy: DeployUpload; seconds: number; release: string }> {
  const store = StoreReader.open(db);
  try {
    const s = await build({ store, out });
    if (!s.deploy) throw new Error('the build published nothing');
    return { deploy: s.deploy, seconds: s.seconds, release: s.release };
  } finally {
    store.close();
  }
}

try {
  const noon = demoReferenceInstant(values.today!);
  const synced = (await syncDemo(db, values.today!, scale, weight)).seconds;
  const first = await buildOnce();
  console.log(
    `deploy-upload: demo at ${weight ?? 'its default (real)'} weight, scale ${scale}, synced in ${synced.toFixed(1)} s, built in ${first.seconds.toFixed(1)} s`,
  );
  console.log(`  first:   ${deployLine(first.deploy)}`);
  fs.writeFileSync(path.join(dir, DEPLOYED_MARK), `${first.release}\n`);
  await syncDemoRoutine(db, new Date(noon.getTime() + 60_000), scale, weight);
  const next = await buildOnce();
  const d = next.deploy;
  console.log(`  routine: ${deployLine(d)}`);

  const archive = d.archive?.changed ? d.archive.bytes : 0;
  const archiveFirst = d.archive?.bytes ?? 0;
  const filesOnly = {
    routine: d.newFiles.bytes - d.newBodies.bytes,
    first: d.firstUpload - archiveFirst - d.bodies.bytes,
  };
  const shapes: Array<[string, number, number]> = [
    ['body files in the deploy (shipped)', d.upload, d.firstUpload],
    [
      'deploy-scoped Blobs (before)',
      filesOnly.routine + d.bodies.bytes + archive,
      filesOnly.first + d.bodies.bytes + archiveFirst,
    ],
    [
      'site-wide Blobs, content-addressed keys',
      filesOnly.routine + d.newBodies.bytes + archive,
      filesOnly.first + d.bodies.bytes + archiveFirst,
    ],
    ['no body files (function reads pre-rendered JSON)', filesOnly.routine + archive, filesOnly.first + archiveFirst],
  ];
  console.log(
    textTable(
      ['shape', 'routine deploy', 'first deploy', 'routine ÷ first'],
      shapes.map(([name, r, f]) => [name, mb(r), mb(f), pct(r, f)]),
      1,
    ),
  );
  console.log(
    `  routine deploy: ${mb(d.newFiles.bytes - d.newBodies.bytes)} of other files, ${mb(d.newBodies.bytes)} of ` +
      `${d.newBodies.files} bodies, function archive ${mb(archive)}`,
  );
  const ratio = d.upload / d.firstUpload;
  recordGoals({
    figure: `routine deploy ÷ first deploy (demo ${weight ?? 'default weight'}, one demo minute)`,
    measured: `${pct(d.upload, d.firstUpload)} (${mb(d.upload)} of ${mb(d.firstUpload)})`,
    goal: `≤ ${GOAL * 100} %`,
    met: ratio <= GOAL,
  });
} finally {
  if (!values.dir) fs.rmSync(dir, { recursive: true, force: true });
}
