/**
 * A probe for the real ESPN (issue #49, item 6): asks, once each, every request form the ESPN sync
 * uses, plus the forms ESPN is reported to refuse or cut, and prints what came back — status, event
 * counts, bytes, caching headers and validators — then a verdict against the table in
 * ../shared/research/espn-api.md ("Since 2026-09-15").
 *
 *   npm run probe:espn -- [--league eng.1] [--base-url URL] [--core-url URL] [--user-agent UA]
 *
 * Needs the internet, so no test and no CI job runs it. About 20 requests, one at a time, a second
 * apart: ESPN has blocked clients for bursts, and a probe must not be one.
 */
import { parseArgs } from 'node:util';
import { defaultUserAgent } from '../src/sync/http/fetch-json.js';
import { easternDay } from '../src/sync/plan/eastern.js';
import { PLAN } from '../src/sync/plan/periods.js';
import { ESPN_CORE_ORIGIN, ESPN_SITE_ORIGIN } from '../src/sync/providers/espn.js';

const { values: opt } = parseArgs({
  options: {
    league: { type: 'string', default: 'eng.1' },
    'base-url': { type: 'string', default: ESPN_SITE_ORIGIN },
    'core-url': { type: 'string', default: ESPN_CORE_ORIGIN },
    'user-agent': { type: 'string', default: defaultUserAgent() },
    help: { type: 'boolean', short: 'h' },
  },
});
if (opt.help) {
  console.log(`Usage: npm run probe:espn -- [--league eng.1] [--base-url URL] [--core-url URL] [--user-agent UA]
Asks ESPN each request form the sync uses (and the forms it is reported to refuse), once each, ~20
requests a second apart, and prints status, counts, caching headers and a verdict. Needs the internet.
Exit 0 when anything answered, 2 when nothing could be reached.`);
  process.exit(0);
}

const league = encodeURIComponent(opt.league);
const site = `${opt['base-url'].replace(/\/+$/, '')}/apis/site/v2/sports/soccer/${league}`;
const core = `${opt['core-url'].replace(/\/+$/, '')}/v2/sports/soccer/leagues/${league}`;
const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const DAY = 86_400_000;
const now = Date.now();
// ESPN's board days are US-Eastern days, as the sync's are (src/sync/plan/eastern.ts).
const today = easternDay(new Date(now));
const month = today.slice(0, 6);
const limit = PLAN.monthLimit;

// biome-ignore lint/suspicious/noExplicitAny: ESPN's payloads are read loosely; the probe only counts.
type Json = any;
type Answer = { form: string; status: number | null; body: Json; headers: Headers | null };

let sent = 0;
let answered = 0;
let totalBytes = 0;
let lastFailure = '';
const answers = new Map<string, Answer>();
/** The conditional requests sent back, and whether a 200 among them carried a different ETag. */
const revalidated: Array<{ status: number | null; newEtag: boolean }> = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const short = (v: string | null | undefined, n = 18) => (!v ? '-' : v.length > n ? `${v.slice(0, n - 1)}…` : v);
const size = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} kB`);

/** What an answer holds, in the unit that matters for its form. */
function count(body: Json): string {
  if (Array.isArray(body?.events)) return `${body.events.length} events`;
  if (Array.isArray(body?.items)) return `${body.items.length} plays, ${body.pageCount ?? '?'} pg`;
  return '-';
}

/** One request, a second after the previous one, printed as one line. */
async function ask(form: string, url: string, extra: Record<string, string> = {}): Promise<Answer> {
  if (sent++) await sleep(1000);
  const started = performance.now();
  const headers = { accept: 'application/json', 'user-agent': opt['user-agent'], ...extra };
  let answer: Answer = { form, status: null, body: undefined, headers: null };
  let line: string;
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
    const bytes = Buffer.from(await res.arrayBuffer());
    answered++;
    totalBytes += bytes.length;
    let body: Json;
    try {
      body = JSON.parse(bytes.toString('utf8'));
    } catch {
      body = undefined; // an empty 304 or an HTML error page: nothing to count
    }
    answer = { form, status: res.status, body, headers: res.headers };
    const h = (name: string) => res.headers.get(name) ?? '-';
    const ms = `${Math.round(performance.now() - started)} ms`;
    line =
      `${res.status}  ${count(body).padEnd(16)} ${size(bytes.length).padStart(8)} ${ms.padStart(7)}  ` +
      `cc=${h('cache-control')} etag=${short(res.headers.get('etag'))} lm=${h('last-modified')} age=${h('age')}`;
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why =
      (err as Error).name === 'TimeoutError' ? 'timeout after 10 s' : (cause?.code ?? cause?.message ?? `${err}`);
    line = `---  no answer: ${why}`;
    lastFailure = why;
  }
  console.log(`${form.padEnd(28)} ${line}  ${url.replace(/^https?:\/\/[^/]+/, '')}`);
  // Two requests and no answer at all: the network is down, not ESPN; say so and stop asking.
  if (answered === 0 && sent >= 2) {
    console.log(
      `probe-espn: network unreachable — no answer from ${opt['base-url']} (${lastFailure}); nothing was checked.`,
    );
    process.exit(2);
  }
  answers.set(form, answer);
  return answer;
}

/** A form the sync asks conditionally: ask, then send back the validators the answer carried (only those). */
async function askTwice(form: string, url: string): Promise<Answer> {
  const first = await ask(form, url);
  const etag = first.headers?.get('etag');
  const lastModified = first.headers?.get('last-modified');
  if (first.status !== 200 || (!etag && !lastModified)) return first;
  const extra: Record<string, string> = {};
  if (etag) extra['if-none-match'] = etag;
  if (lastModified) extra['if-modified-since'] = lastModified;
  const again = await ask(`  ↳ ${form} again`, url, extra);
  revalidated.push({ status: again.status, newEtag: !!etag && again.headers?.get('etag') !== etag });
  return first;
}

console.log(`probe-espn: ${opt.league} at ${opt['base-url']} (core ${opt['core-url']}), UA "${opt['user-agent']}"`);
console.log(`Eastern today ${today}; ~20 requests, one a second.\n`);

// The forms the sync uses (src/sync/providers/espn.ts).
const monthBoard = await askTwice('month board', `${site}/scoreboard?dates=${month}&limit=${limit}`);
const events: Json[] = monthBoard.body?.events ?? [];
await askTwice('day board (today)', `${site}/scoreboard?dates=${today}`);
await ask('date-less board', `${site}/scoreboard`);
// A finished match has the fullest summary and plays (the weight the sync pays): the latest one,
// else one in play, else any.
const stateOf = (e: Json) => e?.status?.type?.state ?? e?.competitions?.[0]?.status?.type?.state;
const pick = events.filter((e) => stateOf(e) === 'post').at(-1) ?? events.find((e) => stateOf(e) === 'in');
const eventId: string | undefined = (pick ?? events[0])?.id;
if (eventId) {
  await askTwice('summary', `${site}/summary?event=${eventId}`);
  await ask('plays (page 1)', `${core}/events/${eventId}/competitions/${eventId}/plays?limit=1000&page=1`);
} else console.log(`${'summary, plays'.padEnd(28)} skipped: the month board gave no event id`);
const teams = await askTwice('teams', `${site}/teams`);
const teamId: string | undefined = teams.body?.sports?.[0]?.leagues?.[0]?.teams?.[0]?.team?.id;
if (teamId) await askTwice('roster', `${site}/teams/${teamId}/roster`);
else console.log(`${'roster'.padEnd(28)} skipped: teams gave no team id`);
await askTwice('standings', `${opt['base-url'].replace(/\/+$/, '')}/apis/v2/sports/soccer/${league}/standings`);

// The forms ESPN is reported to refuse or cut: the sync never sends them.
const weekAhead = easternDay(new Date(now + 6 * DAY));
await ask('range (expect 400)', `${site}/scoreboard?dates=${today}-${weekAhead}`);
await ask('month, no limit', `${site}/scoreboard?dates=${month}`);
await ask('month, limit=600', `${site}/scoreboard?dates=${month}&limit=600`);
// A day after tomorrow that the month board says has matches, so "empty" means something.
const tomorrow = easternDay(new Date(now + DAY));
const kickoffDay = (e: Json) => easternDay(new Date(e?.competitions?.[0]?.date ?? e?.date ?? NaN));
const ahead = events.map(kickoffDay).find((d) => d > tomorrow) ?? easternDay(new Date(now + 5 * DAY));
const aheadExpected = events.filter((e) => kickoffDay(e) === ahead).length;
await ask(`day board (${ahead})`, `${site}/scoreboard?dates=${ahead}`);
await ask('browser User-Agent', `${site}/scoreboard?dates=${today}`, { 'user-agent': BROWSER_UA });

// The verdict, one line per row of the research table this probe can check.
const all = [...answers.values()];
const status = (form: string) => answers.get(form)?.status ?? null;
const n = (form: string): number | null => answers.get(form)?.body?.events?.length ?? null;
console.log(`\nVerdict against ../shared/research/espn-api.md (${sent} requests, ${size(totalBytes)}):`);
/** `differs` null: as reported; `seen` null: that answer is missing, so the row was not checked. */
const check = (row: string, seen: unknown, differs: string | null, note = '') =>
  console.log(
    `  ${row.padEnd(44)} ${seen === null ? 'not checked (no answer)' : differs ? `differs: ${differs}` : `as reported${note && ` (${note})`}`}`,
  );

const syncForms = ['month board', 'day board (today)', 'date-less board', 'summary', 'plays (page 1)', 'teams'];
const not200 = [...syncForms, 'roster', 'standings'].filter((f) => answers.has(f) && status(f) !== 200);
check('the sync forms answer 200', 0, not200.map((f) => `${f} ${status(f) ?? 'none'}`).join(', ') || null);
const full = n('month board');
check(`month limit=${limit}: the whole month`, full, full! >= limit ? 'holds the limit: cut?' : null, `${full} events`);
const range = status('range (expect 400)');
check('range dates=A-B → 400', range, range === 400 ? null : `answered ${range}`);
const noLimit = n('month, no limit');
const capped = Math.min(full ?? 0, 100);
check(
  'month without limit stops at 100',
  full === null ? null : noLimit,
  noLimit === capped ? null : `${noLimit} events, expected ${capped}`,
  capped < 100 ? `${noLimit} events; the month holds under 100, so the cap cannot show` : 'cut to 100',
);
const at600 = n('month, limit=600');
const cut600 = at600 === 25 && full! > 25;
check(
  'limit=600: cut to 25 or complete',
  full === null ? null : at600,
  at600 === full || cut600 ? null : `${at600} events of ${full}`,
  cut600 ? `cut to 25 of ${full}` : 'complete',
);
const aheadGot = n(`day board (${ahead})`);
check(
  `day after tomorrow (${ahead}): empty?`,
  aheadGot,
  aheadGot === 0 || aheadGot === aheadExpected ? null : `${aheadGot} events, the month board shows ${aheadExpected}`,
  aheadGot === 0 && aheadExpected > 0
    ? `empty, though the month board shows ${aheadExpected}`
    : `complete, ${aheadGot} events`,
);
const plays = answers.get('plays (page 1)')?.body ?? null;
check('plays limit=1000: pages of 1000', plays, plays?.pageSize === 1000 ? null : `pageSize ${plays?.pageSize}`);
const boards = all.filter((a) => a.body?.events && a.status === 200);
const boardCc = [...new Set(boards.map((a) => a.headers?.get('cache-control')))];
check(
  'board Cache-Control max-age=2',
  boards.length || null,
  boardCc.join(' | ') === 'max-age=2' ? null : boardCc.join(' | '),
);
const own = status('month board');
check('own UA (Name/1.0 (+URL)) → 200', own, own === 403 ? 'answered 403' : null);
const browser = status('browser User-Agent');
check('browser UA → 403', browser, browser === 403 ? null : `answered ${browser}`);

// The table says nothing about validators; say what was seen, so the sync's use of them can be judged.
const firsts = all.filter((a) => !a.form.includes('↳') && a.status === 200);
const fresh = revalidated.filter((r) => r.status === 200 && r.newEtag).length;
console.log(
  `  ${'validators (not in the table)'.padEnd(44)} ETag on ${firsts.filter((a) => a.headers?.get('etag')).length}/` +
    `${firsts.length} answers, Last-Modified on ${firsts.filter((a) => a.headers?.get('last-modified')).length}; ` +
    `${revalidated.filter((r) => r.status === 304).length}/${revalidated.length} sent back got 304` +
    (fresh ? ` (${fresh} got 200 with a new ETag: changed meanwhile)` : ''),
);
