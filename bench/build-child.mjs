/**
 * One build for bench/build.ts, as `fds build` runs it: the compiled code (build/, which the
 * benchmark compiles first), without a TypeScript loader, under the heap flags the parent passes.
 * Prints the build's summary and the process's peak RSS as JSON.
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    out: { type: 'string' },
    full: { type: 'boolean', default: false },
    fallback: { type: 'string' },
  },
});
const { build } = await import('../build/netlify/build.js');
const { StoreReader } = await import('../build/store/read/reader.js');
const store = StoreReader.open(values.db);
const summary = await build({ store, out: values.out, full: values.full, fallback: values.fallback });
store.close();
process.stdout.write(JSON.stringify({ summary, maxRssKiB: process.resourceUsage().maxRSS }));
