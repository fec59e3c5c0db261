/**
 * `bin/fds.js`, the installed command: it runs the compiled tree, and starts `fds build` again with
 * the build's heap flags (src/cli/build-heap.ts), passing the exit code and signals on.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_HEAP_FLAGS } from '../../src/cli/build-heap.js';
import { ROOT, tempDir } from '../helpers/store.js';
import { demoStore } from '../publish/helpers.js';

const BIN = path.join(ROOT, 'bin/fds.js');
const compiled = fs.existsSync(path.join(ROOT, 'build/cli/build-heap.js'));

describe.skipIf(!compiled)('bin/fds.js build', () => {
  it('builds with the heap flags and exits 0, printing the summary', async () => {
    const db = await demoStore({ leagues: ['eng.1'], scale: 0.05 });
    const out = path.join(tempDir('fds-bin-'), 'dist');
    // The build's own process reports the flags it runs with through a probe module.
    const probe = path.join(tempDir('fds-bin-'), 'probe.mjs');
    const seen = `${probe}.json`;
    fs.writeFileSync(
      probe,
      `import fs from 'node:fs';
if (process.env.FDS_BUILD_HEAP) fs.writeFileSync(${JSON.stringify(seen)}, JSON.stringify(process.execArgv));`,
    );
    const res = spawnSync(process.execPath, ['--import', probe, BIN, 'build', '--db', db, '--out', out], {
      encoding: 'utf8',
    });
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout + res.stderr).toMatch(/^build: .* published /m);
    expect(fs.existsSync(path.join(out, 'manifest.ndjson'))).toBe(true);
    expect(JSON.parse(fs.readFileSync(seen, 'utf8'))).toEqual(expect.arrayContaining(BUILD_HEAP_FLAGS));
  });

  it("passes the build's exit code on: 2 for a usage error, 1 for a failed build", () => {
    const usage = spawnSync(process.execPath, [BIN, 'build', '--no-such-option'], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/unknown option/);
    const missing = path.join(tempDir('fds-bin-'), 'none.sqlite');
    const failed = spawnSync(process.execPath, [BIN, 'build', '--db', missing, '--out', tempDir('fds-bin-')], {
      encoding: 'utf8',
    });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/no store at/);
  });

  it('stops the build when it is told to stop', async () => {
    const db = await demoStore({ leagues: ['eng.1', 'esp.1', 'ger.1'], scale: 0.3 });
    const out = path.join(tempDir('fds-bin-'), 'dist');
    const child = spawn(process.execPath, [BIN, 'build', '--db', db, '--out', out], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(code).not.toBe(0);
    // The build itself stopped too: a build left running would publish within this wait.
    await new Promise((r) => setTimeout(r, 4000));
    expect(fs.existsSync(path.join(out, 'manifest.ndjson'))).toBe(false);
  });
});
