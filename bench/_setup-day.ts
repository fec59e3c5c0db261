import fs from 'node:fs';
import { build } from '../src/publish/build.js';
import { StoreReader } from '../src/store/read/reader.js';
import { BENCH_TODAY, syncDemo } from './demo.js';
const scale = Number(process.argv[2] ?? 1);
const dir = `/tmp/perf/s${scale}.base`;
const db = `${dir}/demo.sqlite`;
if (!process.env.KEEP) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  console.log(await syncDemo(db, BENCH_TODAY, scale));
}
const r = StoreReader.open(db);
const full = await build({ store: r, out: `${dir}/dist`, full: true, fallback: process.env.FB || undefined });
console.log('full', full.seconds, full.files);
r.close();
