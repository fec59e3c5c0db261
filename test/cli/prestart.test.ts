import { describe, expect, it } from 'vitest';
import type { BuildStart } from '../../src/cli/prestart.js';
import { startsAgainAtOnce, wantsRenderWorker } from '../../src/cli/prestart.js';

const cli = (...args: string[]) => ['node', 'fds', ...args];
/** The command's own process, with a build published at every `--out`. */
const published: BuildStart = { bounded: false, published: () => true };

describe('the render worker started with the command', () => {
  it('is started for a build, whatever its other flags', () => {
    expect(wantsRenderWorker(cli('build'), published)).toBe(true);
    expect(wantsRenderWorker(cli('build', '--db', 'x.sqlite', '--out', 'dist'), published)).toBe(true);
    expect(wantsRenderWorker(cli('build', '--workers', '2'), published)).toBe(true);
    expect(wantsRenderWorker(cli('build', '--workers=1'), published)).toBe(true);
  });

  it('is not started for other commands, for help, or for a build told to render in its own thread', () => {
    for (const command of ['sync', 'serve', 'check', 'live'])
      expect(wantsRenderWorker(cli(command), published)).toBe(false);
    expect(wantsRenderWorker(cli(), published)).toBe(false);
    expect(wantsRenderWorker(cli('build', '--help'), published)).toBe(false);
    expect(wantsRenderWorker(cli('build', '-h'), published)).toBe(false);
    expect(wantsRenderWorker(cli('build', '--workers', '0'), published)).toBe(false);
    expect(wantsRenderWorker(cli('build', '--workers=0', '--full'), { ...published, bounded: true })).toBe(false);
    // The last one given counts, as for commander.
    expect(wantsRenderWorker(cli('build', '--workers', '0', '--workers', '2'), published)).toBe(true);
    expect(wantsRenderWorker(cli('build', '--workers', '2', '--workers=0'), published)).toBe(false);
  });

  it('is not started by a build sure to start again with its heap flags, which starts its own', () => {
    expect(wantsRenderWorker(cli('build', '--full'), published)).toBe(false);
    // Nothing published at the output the build is given (the last --out, or dist): a full build.
    const onlyAt = (dir: string): BuildStart => ({ bounded: false, published: (out) => out === dir });
    expect(wantsRenderWorker(cli('build'), onlyAt('site'))).toBe(false);
    expect(wantsRenderWorker(cli('build', '--out', 'site'), onlyAt('site'))).toBe(true);
    expect(wantsRenderWorker(cli('build', '--out', 'site', '--out=other'), onlyAt('site'))).toBe(false);
    expect(wantsRenderWorker(cli('build', '--out=site'), onlyAt('dist'))).toBe(false);
    expect(wantsRenderWorker(cli('build'), onlyAt('dist'))).toBe(true);
  });

  it('is started by the build started again with its heap flags, full or not', () => {
    const bounded: BuildStart = { bounded: true, published: () => false };
    expect(wantsRenderWorker(cli('build', '--full'), bounded)).toBe(true);
    expect(wantsRenderWorker(cli('build', '--out', 'site'), bounded)).toBe(true);
  });

  it('has the command start a build sure to be full again with its heap flags at once, and no other', () => {
    const nothingPublished: BuildStart = { bounded: false, published: () => false };
    expect(startsAgainAtOnce(cli('build', '--full'), published)).toBe(true);
    expect(startsAgainAtOnce(cli('build', '--out', 'site'), nothingPublished)).toBe(true);
    expect(startsAgainAtOnce(cli('build'), published)).toBe(false);
    expect(startsAgainAtOnce(cli('build', '--full', '--help'), published)).toBe(false);
    expect(startsAgainAtOnce(cli('sync', '--full'), nothingPublished)).toBe(false);
    // The process it starts builds.
    expect(startsAgainAtOnce(cli('build', '--full'), { bounded: true, published: () => false })).toBe(false);
  });
});
