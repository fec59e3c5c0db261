/**
 * The front door in a real browser: headless Chromium (Debian's `chromium`, driven by playwright-core)
 * opens `/` from a running `fds serve` over a fresh build. Skipped, and says so, when no Chromium is
 * installed. A screenshot is kept at .tmp/frontdoor.png for a person to look at.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAGUES } from '../../src/reference/leagues.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { ROOT } from '../helpers/store.js';
import { buildInto, demoStore } from '../publish/helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = !fs.existsSync(CHROMIUM);
const skipped = missing ? ` (skipped: no Chromium at ${CHROMIUM}; install Debian's chromium or set CHROMIUM_PATH)` : '';
if (missing) console.warn(`front door browser tests${skipped}`);

let child: ChildProcessWithoutNullStreams | null = null;
let browser: Browser | null = null;
let origin = '';
let snapshotAt = 0;

/** `fds serve` as a user runs it, on an ephemeral loopback port; resolves with its address. */
function startServe(db: string, dir: string): Promise<string> {
  const cli = [path.join(ROOT, 'src/cli/main.ts'), 'serve', '--port', '0', '--host', '127.0.0.1'];
  child = spawn(process.execPath, ['--import', 'tsx', ...cli, '--db', db, '--dir', dir], {
    cwd: ROOT,
    env: { ...process.env, CI: 'true' },
  });
  const proc = child;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('fds serve did not start')), 30_000);
    proc.on('exit', (code) => reject(new Error(`fds serve exited with ${code}`)));
    readline.createInterface({ input: proc.stdout }).on('line', (line) => {
      const msg = JSON.parse(line) as { event?: string; url?: string };
      if (msg.event === 'listening') {
        clearTimeout(timer);
        resolve(msg.url!);
      }
    });
  });
}

interface Visit {
  page: Page;
  errors: string[];
  offsite: string[];
}

/** Open `/` with the browser's clock at `now`; every request to another origin is recorded and refused. */
async function visit(now: number): Promise<Visit> {
  const context = await browser!.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const errors: string[] = [];
  const offsite: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    offsite.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  // Installed, not fixed: Swagger UI's debounced handlers need time to pass.
  await page.clock.install({ time: now });
  await page.goto(`${origin}/`, { waitUntil: 'load' });
  await page.locator('#api-reference .opblock').first().waitFor({ timeout: 30_000 });
  return { page, errors, offsite };
}

beforeAll(async () => {
  if (missing) return;
  const db = await demoStore();
  const { out } = await buildInto(db);
  const store = StoreReader.open(db);
  snapshotAt = Date.parse(store.meta().lastSuccessfulSyncAt!);
  store.close();
  origin = await startServe(db, out);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // Chromium's sandbox refuses to run as root, which containers and CI often are.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
});

afterAll(async () => {
  await browser?.close();
  child?.kill('SIGTERM');
});

describe(`the front door in headless Chromium${skipped}`, () => {
  it.skipIf(missing)(
    'shows all 16 leagues and an API reference of every endpoint, with no console error and no request elsewhere',
    async () => {
      const { page, errors, offsite } = await visit(snapshotAt + 10 * 60_000);
      for (const league of LEAGUES) {
        const row = page.locator('table.leagues tbody th', { hasText: league.name });
        expect(await row.isVisible(), league.name).toBe(true);
      }
      const doc = (await (await fetch(`${origin}/openapi.json`)).json()) as { paths: Record<string, unknown> };
      const shown = await page
        .locator('#api-reference .opblock-summary-path')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
      expect(shown.sort()).toEqual(Object.keys(doc.paths).sort());
      // Swagger UI reports what it cannot render (errors, an unsupported schema dialect) in these boxes.
      expect(await page.locator('#api-reference .errors-wrapper').allInnerTexts()).toEqual([]);
      expect(await page.locator('#stale-warning').isHidden()).toBe(true);
      // Swagger UI brings the page's one <main>; the page must not add another.
      expect(await page.locator('main').count()).toBe(1);
      fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
      await page.screenshot({ path: path.join(ROOT, '.tmp/frontdoor.png'), fullPage: true });
      expect(errors).toEqual([]);
      expect(offsite).toEqual([]);
      await page.context().close();
    },
  );

  it.skipIf(missing)('lets a person try an endpoint: the request goes to the same origin and gets a 200', async () => {
    const { page, errors, offsite } = await visit(snapshotAt + 10 * 60_000);
    const op = page.locator('[id="operations-Football_data-leagues"]');
    await op.locator('.opblock-summary-control').click();
    await op.locator('.try-out__btn').click();
    const answered = page.waitForResponse((r) => r.url().startsWith(`${origin}/get/soccer/leagues`));
    await op.locator('.execute').click();
    const response = await answered;
    expect(response.status()).toBe(200);
    await expect
      .poll(() => op.locator('.live-responses-table tbody .response-col_status').first().textContent())
      .toContain('200');
    expect(errors).toEqual([]);
    expect(offsite).toEqual([]);
    await page.context().close();
  });

  it.skipIf(missing)('warns, by the reader’s clock, when the last successful sync is old', async () => {
    const { page } = await visit(snapshotAt + 2 * 86_400_000 + 60_000);
    const warning = page.locator('#stale-warning');
    expect(await warning.isVisible()).toBe(true);
    expect(await warning.textContent()).toContain('the last successful sync was 2 days ago');
    expect(await page.locator('#last-success').evaluate((e) => e.parentElement!.textContent)).toContain('(2 days ago)');
    await page.context().close();
  });
});
