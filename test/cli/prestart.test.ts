import { describe, expect, it } from 'vitest';
import type { BuildStart } from '../../src/cli/prestart.js';
import { startsAgainAtOnce, wantsRenderWorker } from '../../src/cli/prestart.js';

const cli = (...args: string[]) => ['node', 'fds', ...args];
/** The command's own process, with a build published at every `--out`. */
const published: BuildStart = { bounded: false, published: () => true };

describe('the render worker started with the command', () => {
  it('is started for a build, whatever its other flags', () => {
    expect(wantsRenderWorker(cli('build'))).toBe(true);
    expect(wantsRenderWorker(cli('build', '--db', 'x.sqlite', '--out', 'dist'))).toBe(true);
    expect(wantsRenderWorker(cli('build', '--workers', '2'))).toBe(true);
    expect(wantsRenderWorker(cli('build', '--workers=1'))).toBe(true);
  });

  it('is not started for other commands, for help, or for a build told to render in its own thread', () => {
    for (const command of ['sync', 'serve', 'check', 'live']) expect(wantsRenderWorker(cli(command))).toBe(false);
    expect(wantsRenderWorker(cli())).toBe(false);
    expect(wantsRenderWorker(cli('build', '--help'))).toBe(false);
    expect(wantsRenderWorker(cli('build', '-h'))).toBe(false);
    expect(wantsRenderWorker(cli('build', '--workers', '0'))).toBe(false);
    expect(wantsRenderWorker(cli('build', '--workers=0', '--full'))).toBe(false);
    // The last one given counts, as for commander.
    expect(wantsRenderWorker(cli('build', '--workers', '0', '--workers', '2'))).toBe(true);
    expect(wantsRenderWorker(cli('build', '--workers', '2', '--workers=0'))).toBe(false);
  });
});

describe('a build sure to be full', () => {
  it('is started again with its heap flags at once: asked to be full, or with nothing published at its output', () => {
    expect(startsAgainAtOnce(cli('build', '--full'), published)).toBe(true);
    // The output the build is given: the last --out, else dist.
    const onlyAt = (dir: string): BuildStart => ({ bounded: false, published: (out) => out === dir });
    expect(startsAgainAtOnce(cli('build'), onlyAt('site'))).toBe(true);
    expect(startsAgainAtOnce(cli('build', '--out', 'site'), onlyAt('site'))).toBe(false);
    expect(startsAgainAtOnce(cli('build', '--out', 'site', '--out=other'), onlyAt('site'))).toBe(true);
    expect(startsAgainAtOnce(cli('build', '--out=site'), onlyAt('dist'))).toBe(true);
    expect(startsAgainAtOnce(cli('build'), onlyAt('dist'))).toBe(false);
  });

  it('is not started again for help, by another command, or by the process it started', () => {
    const nothingPublished: BuildStart = { bounded: false, published: () => false };
    expect(startsAgainAtOnce(cli('build', '--full', '--help'), nothingPublished)).toBe(false);
    expect(startsAgainAtOnce(cli('sync', '--full'), nothingPublished)).toBe(false);
    expect(startsAgainAtOnce(cli('build', '--full'), { bounded: true, published: () => false })).toBe(false);
  });
});
