/**
 * `nginx.conf` for a release (src/nginx/config.ts) run by the installed nginx in front of `fds serve`:
 * every pre-rendered request as the manifest spells it, `fds check`'s sample of bent requests, and
 * requests nginx cannot read as the API does, each sent to nginx and to `fds serve` alike, get the
 * same status, body and API headers; nginx answers the pre-rendered spellings from files (its access
 * log names no upstream for them) and sends the rest to the origin. Without nginx the configuration
 * is still held to the server's static lookup; the nginx runs are skipped, saying so.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from '../../src/app/resolve.js';
import { OTHER_REQUESTS, mutate, seededRng, splitUrl } from '../../src/check/sample.js';
import type { RawRequest } from '../../src/check/sample.js';
import { writeNginxConfig } from '../../src/nginx/config.js';
import { currentRelease } from '../../src/release/layout.js';
import { readManifestSync } from '../../src/release/manifest.js';
import type { ManifestEntry } from '../../src/release/manifest.js';
import { StaticBuild } from '../../src/server/static-lookup.js';
import { rawRequest } from '../api/helpers/targets.js';
import type { TargetResponse } from '../api/helpers/targets.js';
import { freePort } from '../deploy/varnish-helpers.js';
import { ROOT, tempDir } from '../helpers/store.js';
import { buildInto, demoStore } from '../publish/helpers.js';

const NGINX = '/usr/sbin/nginx';
const installed = fs.existsSync(NGINX);
const skipped = installed ? '' : ' (skipped: nginx not installed)';
if (!installed) console.warn(`nginx in front of fds serve${skipped}`);

/** Bent requests drawn as `fds check` draws its sample, besides OTHER_REQUESTS. */
const SAMPLE = 400;
/** Headers of the connection, not of the answer: each server sends its own. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'server']);
/** Sent with every request, to find its line in nginx's access log; both servers ignore it. */
const PROBE = 'x-fds-probe';

let db: string;
let release: string;
let manifest: ManifestEntry[];

beforeAll(async () => {
  db = await demoStore({ leagues: ['eng.1'] });
  release = currentRelease((await buildInto(db)).out)!;
  manifest = readManifestSync(path.join(release, 'manifest.ndjson'));
});

/** The manifest's requests and aliases, as it spells them. */
const prerendered = () => manifest.flatMap((e) => [e.request, ...e.aliases]);

/** The configuration's spellings, each with the file its record names. */
function spelledFiles(config: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [, id, record] of config.matchAll(/^ {4}(\d+) "\d+\\t([^\\]+)\\t/gm)) files.set(id!, record!);
  const spelled = new Map<string, string>();
  for (const [, spelling, id] of config.matchAll(/^ {4}"(\/[^"]*)" (\d+);$/gm)) spelled.set(spelling!, files.get(id!)!);
  return spelled;
}

describe('nginx.conf for a release', () => {
  it('lists only spellings without capitals that fds serve answers from the same file, and every pre-rendered request', () => {
    const { file, spellings } = writeNginxConfig(release, { origin: 'http://127.0.0.1:8080' });
    const spelled = spelledFiles(fs.readFileSync(file, 'utf8'));
    expect(spelled.size).toBe(spellings);
    const lookup = new StaticBuild(release);
    try {
      for (const [spelling, target] of spelled) {
        expect(spelling).not.toMatch(/[A-Z]/);
        const { path: p, query } = splitUrl(spelling);
        const answer = lookup.lookup({ method: 'GET', path: p, rawQuery: query, headers: {} }, resolve(p, query));
        const entry = manifest.find((e) => e.file === target);
        expect(answer?.headers.ETag, spelling).toBe(entry?.etag);
      }
    } finally {
      lookup.close();
    }
    for (const url of prerendered()) expect(spelled.has(url), url).toBe(true);
    // Reproducible: the same release gives the same bytes.
    const first = fs.readFileSync(file);
    writeNginxConfig(release, { origin: 'http://127.0.0.1:8080' });
    expect(fs.readFileSync(file).equals(first)).toBe(true);
  });

  it('proxies to an http(s) origin as its URL names it, and refuses any other', () => {
    const { file } = writeNginxConfig(release, { origin: 'https://origin.example/api/' });
    const config = fs.readFileSync(file, 'utf8');
    expect(config).toContain('upstream fds_origin { server origin.example:443; keepalive 16; }');
    expect(config).toContain('location / { proxy_pass https://fds_origin/api$request_uri; }');
    expect(config).toContain('proxy_set_header Host "origin.example";');
    expect(config).toContain('proxy_ssl_name "origin.example";');
    for (const origin of ['ftp://x', 'http://user@x:1', 'http://x:1/?q=1', 'http://x:1/$host', 'x:1'])
      expect(() => writeNginxConfig(release, { origin }), origin).toThrow(/origin/);
  });
});

describe.skipIf(!installed)(`nginx in front of fds serve${skipped}`, () => {
  let serve: ChildProcess;
  let nginx: ChildProcess;
  let originPort: number;
  let nginxPort: number;
  let log: AccessLog;
  let probes = 0;

  beforeAll(async () => {
    serve = spawn(
      process.execPath,
      [
        ...['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'serve', '--port', '0', '--db', db],
        ...['--dir', release, '--no-rate-limiting', '--no-request-log'],
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    originPort = await listeningPort(serve);
    nginxPort = await freePort();
    writeNginxConfig(release, { origin: `http://127.0.0.1:${originPort}`, listen: `127.0.0.1:${nginxPort}` });
    const scratch = tempDir('fds-nginx-');
    log = new AccessLog(path.join(scratch, 'access.log'));
    const conf = path.join(scratch, 'nginx.conf');
    fs.writeFileSync(conf, wrapperConfig(scratch, path.join(release, 'nginx.conf')));
    nginx = spawn(NGINX, ['-p', scratch, '-c', conf, '-e', path.join(scratch, 'error.log')], { stdio: 'inherit' });
    await untilAnswering(nginxPort, nginx);
  }, 60_000);

  afterAll(async () => {
    for (const child of [nginx, serve]) if (child && child.exitCode === null) child.kill('SIGTERM');
    await Promise.all([nginx, serve].map((c) => c && exited(c)));
  });

  /** One request to both servers; nginx's answer, fds serve's, and whether nginx asked the origin. */
  async function both(method: string, url: string, headers: Record<string, string> = {}) {
    const probe = String(++probes);
    const viaNginx = await rawRequest(nginxPort, method, url, { ...headers, [PROBE]: probe });
    const direct = await rawRequest(originPort, method, url, { ...headers, [PROBE]: probe });
    return { viaNginx, direct, fromOrigin: async () => (await log.upstreamOf(probe)) !== '' };
  }

  it('answers every pre-rendered request from its file, as fds serve answers it', async () => {
    for (const url of prerendered()) {
      const { viaNginx, direct, fromOrigin } = await both('GET', url);
      expectSame(url, viaNginx, direct);
      expect(await fromOrigin(), `${url} went to the origin`).toBe(false);
    }
  });

  it("answers fds check's sample as fds serve does, from files where it can tell", async () => {
    const rng = seededRng(1);
    const bases = prerendered().map(splitUrl);
    const sample: RawRequest[] = [
      ...OTHER_REQUESTS.map(splitUrl),
      ...Array.from({ length: SAMPLE }, () => mutate(bases[Math.floor(rng() * bases.length)]!, rng)),
    ];
    let fromFiles = 0;
    let onTheWire = 0;
    for (const r of sample) {
      const url = r.query ? `${r.path}?${r.query}` : r.path;
      // What no client can send (a space in the target): node:http refuses it, as it should.
      if (!/^[\x21-\x7e]+$/.test(url)) continue;
      onTheWire++;
      const { viaNginx, direct, fromOrigin } = await both('GET', url);
      expectSame(url, viaNginx, direct);
      if (!(await fromOrigin())) fromFiles++;
    }
    expect(onTheWire).toBeGreaterThan(SAMPLE * 0.8);
    // Bent requests that still spell a file exactly (a reordered query, a dropped default) are nginx's.
    expect(fromFiles).toBeGreaterThan(50);
    expect(fromFiles).toBeLessThan(onTheWire);
  });

  it('sends what nginx cannot read as the API does to the origin, which answers it as fds serve does', async () => {
    const standings = manifest.find((e) => /\/standings\?season=\d+$/.test(e.request))!.request;
    const season = Number(standings.slice(-4));
    const league = manifest.find((e) => e.request.startsWith('/get/soccer/leagues?'))!.request;
    const cases = [
      // A repeated key: nginx's $arg_ reads the first value, the API the last.
      `${standings}&season=${season - 1}`,
      standings.replace(`season=${season}`, `season=${season - 1}&season=${season}`),
      `${league}&kind=international`,
      // Capitals: nginx's map would compare them case-insensitively.
      league.replace('kind=club', 'kind=CLUB'),
      manifest.find((e) => e.request.includes('important=true'))!.request.replace('true', 'TRUE'),
      // A path nginx normalizes, and one of its internal locations asked for directly.
      `/x/..${league}`,
      `/.fds/0/${manifest[0]!.file}`,
    ];
    for (const url of cases) {
      const { viaNginx, direct, fromOrigin } = await both('GET', url);
      expectSame(url, viaNginx, direct);
      expect(await fromOrigin(), `${url} was answered from a file`).toBe(true);
    }
  });

  it('answers HEAD from the file, leaves conditional requests to the origin, and gzips what the server would compress', async () => {
    const entry = manifest.find((e) => e.bytes > 4096 && e.aliases.length)!;
    const head = await both('HEAD', entry.request);
    expectSame(`HEAD ${entry.request}`, head.viaNginx, head.direct);
    expect(await head.fromOrigin()).toBe(false);
    for (const condition of [entry.etag, `W/${entry.etag}`, `"other", ${entry.etag}`, '*', '"other"']) {
      const conditional = await both('GET', entry.aliases[0]!, { 'if-none-match': condition });
      expectSame(`If-None-Match: ${condition}`, conditional.viaNginx, conditional.direct);
      expect(await conditional.fromOrigin()).toBe(true);
    }
    const gzipped = await both('GET', entry.request, { 'accept-encoding': 'gzip' });
    expect(await gzipped.fromOrigin()).toBe(false);
    expect(gzipped.viaNginx.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzipped.viaNginx.body).equals(fs.readFileSync(path.join(release, entry.file)))).toBe(true);
    expect(gzipped.viaNginx.headers.vary).toBe(gzipped.direct.headers.vary);
  });
});

/**
 * Same status, body and headers but the connection's. Health tells the moment it was asked
 * (`timestamp`, `uptime`): those are left out, and with them what is made of its bytes.
 */
function expectSame(label: string, viaNginx: TargetResponse, direct: TargetResponse): void {
  const timed = /health/.test(label);
  expect(viaNginx.status, label).toBe(direct.status);
  expect(comparableBody(viaNginx.body, timed), label).toEqual(comparableBody(direct.body, timed));
  expect(apiHeaders(viaNginx, timed), label).toEqual(apiHeaders(direct, timed));
}

function apiHeaders(r: TargetResponse, timed: boolean): Record<string, string> {
  const ofTheBytes = (name: string) => timed && (name === 'etag' || name === 'content-length');
  return Object.fromEntries(Object.entries(r.headers).filter(([name]) => !TRANSPORT.has(name) && !ofTheBytes(name)));
}

function comparableBody(body: Buffer, timed: boolean): unknown {
  if (!timed) return body.toString('latin1');
  const { timestamp: _t, uptime: _u, ...rest } = JSON.parse(body.toString()) as Record<string, unknown>;
  return rest;
}

/** nginx in the foreground with a scratch prefix, including the release's configuration in its http {}. */
function wrapperConfig(scratch: string, include: string): string {
  const at = (name: string) => path.join(scratch, name);
  // Started by root, nginx's workers would run as `nobody`, who cannot read a private temp directory.
  return `${process.getuid?.() === 0 ? 'user root root;\n' : ''}worker_processes 1;
daemon off;
pid ${at('nginx.pid')};
error_log ${at('error.log')} warn;
events { worker_connections 256; }
http {
  log_format probes escape=json '{"probe":"$http_${PROBE.replaceAll('-', '_')}","upstream":"$upstream_addr"}';
  access_log ${at('access.log')} probes;
  client_body_temp_path ${at('body')};
  proxy_temp_path ${at('proxy')};
  fastcgi_temp_path ${at('fastcgi')};
  uwsgi_temp_path ${at('uwsgi')};
  scgi_temp_path ${at('scgi')};
  include ${include};
}
`;
}

/** The port `fds serve` prints in its `listening` line. */
function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error('fds serve did not start within 30 s')), 30_000);
    child.on('exit', (code) => reject(new Error(`fds serve exited (${code}) before listening`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const msg = JSON.parse(line) as { event?: string; url?: string };
      if (msg.event !== 'listening') return;
      clearTimeout(timer);
      resolvePort(Number(new URL(msg.url!).port));
    });
  });
}

/** Until nginx answers (through the origin) on `port`, or fails. */
async function untilAnswering(port: number, child: ChildProcess): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): see its error log`);
    try {
      if ((await rawRequest(port, 'GET', '/health')).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('nginx did not answer within 10 s');
}

/**
 * nginx's access log, one JSON line per request: the probe it carried and the upstream nginx asked
 * (empty: none). nginx logs a request after answering it, so a line may come a moment after the answer.
 */
class AccessLog {
  private readonly upstreams = new Map<string, string>();
  private read = 0;

  constructor(private readonly file: string) {}

  async upstreamOf(probe: string): Promise<string> {
    for (let tries = 0; tries < 200; tries++) {
      this.readOn();
      const upstream = this.upstreams.get(probe);
      if (upstream !== undefined) return upstream;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`no access log line for request ${probe}`);
  }

  private readOn(): void {
    const text = fs.readFileSync(this.file, 'utf8');
    const end = text.lastIndexOf('\n') + 1;
    for (const line of text.slice(this.read, end).split('\n')) {
      if (!line) continue;
      const entry = JSON.parse(line) as { probe: string; upstream: string };
      this.upstreams.set(entry.probe, entry.upstream);
    }
    this.read = end;
  }
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null ? Promise.resolve() : new Promise<void>((r) => child.on('exit', () => r()));
