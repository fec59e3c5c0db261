import { build } from '../src/publish/build.js';
import { StoreReader } from '../src/store/read/reader.js';
const dir = process.argv[2]!;
const r = StoreReader.open(`${dir}/demo.sqlite`);
const b = await build({
  store: r,
  out: `${dir}/dist`,
  workers: Number(process.env.W ?? 2),
  fallback: process.env.FB || undefined,
});
console.log(
  b.mode,
  b.seconds.toFixed(2),
  'rendered',
  b.rendered,
  'written',
  b.added + b.changed,
  'deleted',
  b.deleted,
  'files',
  b.files,
);
