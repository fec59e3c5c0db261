/**
 * `fds live` takes the server options of `fds serve` (one declaration for both), `--fallback` as
 * `fds build` does, and `--purge` targets, each checked as it is parsed.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildCommand } from '../../src/cli/commands/build.js';
import { liveCommand } from '../../src/cli/commands/live.js';
import { serveCommand } from '../../src/cli/commands/serve.js';
import { UsageError } from '../../src/cli/errors.js';
import { serverOptionsOf } from '../../src/cli/server-options.js';
import type { ServerFlags } from '../../src/cli/server-options.js';

/** The options a command line gives the command, without running it. */
async function optsOf(make: () => Command, args: string[]): Promise<Record<string, unknown>> {
  let opts: Record<string, unknown> = {};
  const cmd = make().exitOverride();
  cmd.action(function (this: Command) {
    opts = this.opts();
  });
  await cmd.parseAsync(args, { from: 'user' });
  return opts;
}

const SERVER_OPTIONS = ['--trust-proxy [n]', '--rate-limit <n>', '--rate-limit-other <n>', '--no-rate-limiting'];

describe('the server options of fds serve and fds live', () => {
  it('are the same options on both commands', () => {
    const flags = (cmd: Command) => cmd.options.map((o) => `${o.flags}: ${o.description}`);
    const serve = flags(serveCommand());
    const live = flags(liveCommand());
    for (const name of SERVER_OPTIONS) {
      const line = serve.find((l) => l.startsWith(`${name}:`));
      expect(line, name).toBeDefined();
      expect(live).toContain(line);
    }
  });

  it.each([
    ['serve', serveCommand],
    ['live', liveCommand],
  ])('are parsed by fds %s into the server’s options', async (_name, make) => {
    const defaults = await optsOf(make, []);
    expect(serverOptionsOf(defaults as unknown as ServerFlags)).toEqual({
      trustProxy: false,
      rateLimit: { api: 120, other: 500, windowMs: 60_000 },
    });
    const given = await optsOf(make, ['--trust-proxy', '--rate-limit', '5', '--rate-limit-other', '7']);
    expect(serverOptionsOf(given as unknown as ServerFlags)).toEqual({
      trustProxy: true,
      rateLimit: { api: 5, other: 7, windowMs: 60_000 },
    });
    const two = await optsOf(make, ['--trust-proxy', '2', '--no-rate-limiting']);
    expect(serverOptionsOf(two as unknown as ServerFlags)).toEqual({ trustProxy: 2, rateLimit: null });
  });

  it('refuse a proxy count that is not 1 to 10, as a usage error', async () => {
    await expect(optsOf(liveCommand, ['--trust-proxy', '0'])).rejects.toThrow(UsageError);
    await expect(optsOf(serveCommand, ['--trust-proxy', '11'])).rejects.toThrow(/1 to 10/);
  });
});

describe('fds live', () => {
  it('takes --fallback, defaulting as fds build does', async () => {
    const live = await optsOf(liveCommand, []);
    const build = await optsOf(buildCommand, []);
    expect(live.fallback).toBe(build.fallback);
    expect((await optsOf(liveCommand, ['--fallback', 'https://origin.example'])).fallback).toBe(
      'https://origin.example',
    );
  });

  it('takes --purge targets, repeated, each checked as it is parsed', async () => {
    expect((await optsOf(liveCommand, [])).purge).toEqual([]);
    const { purge } = await optsOf(liveCommand, [
      '--purge',
      'varnish:http://127.0.0.1:6081/',
      '--purge',
      'varnish:http://127.0.0.1:6082/',
    ]);
    expect((purge as Array<{ name: string; where: string }>).map((t) => `${t.name} ${t.where}`)).toEqual([
      'varnish 127.0.0.1:6081',
      'varnish 127.0.0.1:6082',
    ]);
    await expect(optsOf(liveCommand, ['--purge', 'akamai'])).rejects.toThrow(UsageError);
    await expect(optsOf(buildCommand, ['--purge', 'varnish:ftp://x'])).rejects.toThrow(/not an http\(s\) URL/);
  });
});
