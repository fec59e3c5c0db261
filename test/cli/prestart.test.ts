import { describe, expect, it } from 'vitest';
import { wantsRenderWorker } from '../../src/cli/prestart.js';

const cli = (...args: string[]) => ['node', 'fds', ...args];

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
