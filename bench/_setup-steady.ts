import { build } from '../src/publish/build.js';
import { StoreReader } from '../src/store/read/reader.js';
import { demoReferenceInstant } from '../src/sync/providers/demo/index.js';
import { BENCH_TODAY, syncDemoRoutine } from './demo.js';
const dir = process.argv[2]!;
const scale = Number(process.argv[3] ?? 1);
const steps = process.argv.slice(4).map(Number); // minutes after noon; the last is only synced
const noon = demoReferenceInstant(BENCH_TODAY).getTime();
for (const [i, m] of steps.entries()) {
  const s = await syncDemoRoutine(`${dir}/demo.sqlite`, new Date(noon + m * 60_000), scale);
  if (i === steps.length - 1) {
    console.log('synced', m, s);
    break;
  }
  const r = StoreReader.open(`${dir}/demo.sqlite`);
  const b = await build({ store: r, out: `${dir}/dist`, keepReleases: 2, fallback: process.env.FB || undefined });
  console.log(m, s.seconds.toFixed(2), b.seconds.toFixed(2), b.rendered, b.added + b.changed);
  r.close();
}
