/**
 * The front door (docs/json-api.md, "`GET /openapi.json` and `GET /`"): the HTML page a person sees
 * at `/`. A pure function of what the store and the route table say (data.ts), so the built
 * `index.html` and the page `fds serve` renders are the same bytes. Everything it loads comes from
 * its own origin: its stylesheet and script, and the API reference renderer, which reads
 * `/openapi.json`.
 *
 * Landmarks: Swagger UI renders the reference inside its own <main>, and a document has one main, so
 * the page's other parts are named regions (sections with headings) rather than a second <main>.
 *
 * Staleness: the page is a static file on a CDN, so "how old is the data" can only be answered when
 * someone reads it. The page therefore states the facts with exact times, and a same-origin script
 * (assets/frontdoor/frontdoor.js) compares them with the reader's clock and warns when the last
 * successful sync is older than STALE_AFTER_SECONDS. What does not depend on the reader's clock — a
 * failed last sync, a store never synced — is said in the HTML itself, so it shows without script.
 */
import type { Endpoint, FrontDoorData, LeagueEntry } from './data.js';
import { assetUrl } from './paths.js';
import { thousands } from '../util/thousands.js';

/** Scheduled publishing runs every 15 minutes: three hours without a successful sync is a dozen runs. */
export const STALE_AFTER_SECONDS = 3 * 60 * 60;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text and attribute values: store content (league and match names) is provider data. */
export function esc(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const n = (v: number) => esc(thousands(v));

/** `2026-03-21T16:00:00Z` → a <time> reading `2026-03-21 16:00 UTC`; the script adds "(x ago)". */
function time(iso: string | null, fallback: string, id?: string): string {
  if (!iso) return esc(fallback);
  const idAttr = id ? ` id="${esc(id)}"` : '';
  return `<time${idAttr} datetime="${esc(iso)}" data-age>${esc(`${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`)}</time>`;
}

const PROVIDERS: Record<string, string> = {
  demo: 'the built-in demo generator (fictional clubs and matches)',
  espn: 'ESPN’s public soccer API',
  files: 'recorded ESPN responses',
};

function freshness(d: FrontDoorData): string {
  // Only what moves with the data: a sync that changes nothing, failing or not, leaves every
  // response as it was (docs/json-api.md, "Freshness") — this page included, or a build that
  // publishes nothing would leave a page behind that the server no longer renders.
  const warnings: string[] = [];
  if (!d.snapshotAt) {
    warnings.push('No sync has brought data yet, so the store holds no football data. Run <code>fds sync</code>.');
  } else if (!d.lastSuccessfulSyncAt || d.lastSuccessfulSyncAt < d.snapshotAt) {
    warnings.push(
      `The data as of ${time(d.snapshotAt, '')} came from a sync that failed for some of its units: everything it ` +
        'could fetch was kept; the rest is as earlier syncs left it. ' +
        (d.lastSuccessfulSyncAt
          ? `The last sync without failures was at ${time(d.lastSuccessfulSyncAt, '')}.`
          : 'No sync has completed without failures yet.'),
    );
  }
  return `<section id="freshness" aria-labelledby="freshness-title" data-stale-after="${STALE_AFTER_SECONDS}">
<h2 id="freshness-title">How fresh is it?</h2>
<dl class="facts">
<div><dt>Snapshot</dt><dd>${time(d.snapshotAt, 'none yet')}<br>
<span class="note">The data as of then: every response’s <code>generatedAt</code></span></dd></div>
<div><dt>Last successful sync</dt><dd>${time(d.lastSuccessfulSyncAt, 'none yet', 'last-success')}</dd></div>
<div><dt>Source</dt><dd>${esc(d.provider ? (PROVIDERS[d.provider] ?? d.provider) : 'none yet')}</dd></div>
</dl>
${warnings.map((w) => `<p class="warning"><strong>Warning:</strong> ${w}</p>\n`).join('')}\
<p class="warning" id="stale-warning" hidden></p>
</section>`;
}

function examples(d: FrontDoorData): string {
  const items = d.examples
    .map((e) => `<li><a href="${esc(e.url)}"><code>GET ${esc(e.url)}</code></a><br>${esc(e.description)}</li>`)
    .join('\n');
  return `<section aria-labelledby="start-title">
<h2 id="start-title">Where to start</h2>
<p>Every answer is JSON. Try these, in the browser or with <code>curl</code>:</p>
<ol class="examples">
${items}
</ol>
<p>Each league below links to its resources; the <a href="#reference">API reference</a> lists every endpoint and
lets you try them here. The description it is rendered from is
<a href="${esc(d.links.openapi)}"><code>${esc(d.links.openapi)}</code></a> (OpenAPI 3.1).</p>
</section>`;
}

function coverage(l: LeagueEntry): string {
  if (!l.coverage.hasData) return '<td colspan="3" class="none">no data yet</td>';
  const counts = [l.coverage.matches, l.coverage.clubs, l.coverage.standingsGroups];
  return counts.map((c) => `<td class="num">${n(c)}</td>`).join('');
}

function leagueRow(l: LeagueEntry): string {
  const link = (href: string, text: string) =>
    `<a href="${esc(href)}" aria-label="${esc(`${l.name}: ${text}`)}">${esc(text)}</a>`;
  const { scoreboard, fixtures, clubs, standings } = l.links;
  const links = [
    link(scoreboard, 'today'),
    link(fixtures, 'fixtures'),
    link(clubs, 'clubs'),
    link(standings, 'standings'),
  ].join(' ');
  return `<tr>
<th scope="row"><span class="league-name">${esc(l.name)}</span> <span class="slug">${esc(l.slug)}</span></th>
<td>${esc(l.country)}</td>
<td>${esc(l.season ?? '—')}</td>
${coverage(l)}
<td>${time(l.lastSyncedAt, '—')}</td>
<td class="links">${links}</td>
</tr>`;
}

function leagues(d: FrontDoorData): string {
  return `<section aria-labelledby="leagues-title">
<h2 id="leagues-title">${n(d.leagues.length)} leagues</h2>
<p>${n(d.totals.matches)} matches, ${n(d.totals.playByPlayEvents)} play-by-play events and
${n(d.totals.standingsGroups)} standings tables in this snapshot.
“Today” is the league’s scoreboard for the current UTC day.</p>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="leagues-title">
<table class="leagues">
<thead><tr><th scope="col">League</th><th scope="col">Country</th><th scope="col">Season</th>
<th scope="col" class="num">Matches</th><th scope="col" class="num">Clubs</th><th scope="col" class="num">Tables</th>
<th scope="col">Last changed</th><th scope="col">Resources</th></tr></thead>
<tbody>
${d.leagues.map(leagueRow).join('\n')}
</tbody>
</table>
</div>
</section>`;
}

function endpointList(endpoints: readonly Endpoint[]): string {
  return endpoints.map((e) => `<li><code>GET ${esc(e.path)}</code> — ${esc(e.summary)}</li>`).join('\n');
}

function reference(d: FrontDoorData): string {
  return `<section id="reference" aria-labelledby="reference-title">
<h2 id="reference-title">API reference</h2>
<p>Open an endpoint, choose “Try it out”, then “Execute” to send the request to this server.</p>
<noscript><p>The interactive reference needs JavaScript. The endpoints (full description in
<a href="${esc(d.links.openapi)}"><code>${esc(d.links.openapi)}</code></a>):</p>
<ul>
${endpointList(d.endpoints)}
</ul></noscript>
<div id="api-reference" data-spec="${esc(d.links.openapi)}"></div>
</section>`;
}

export function frontDoorPage(d: FrontDoorData): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(d.name)}</title>
<meta name="description"
 content="A read-only JSON API of football data for ${n(d.leagues.length)} leagues, served from snapshots.">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetUrl('swagger-ui.css')}">
<link rel="stylesheet" href="${assetUrl('frontdoor.css')}">
<script src="${assetUrl('swagger-ui-bundle.js')}" defer></script>
<script src="${assetUrl('frontdoor.js')}" defer></script>
</head>
<body>
<a class="skip" href="#reference">Skip to the API reference</a>
<header>
<h1>${esc(d.name)} <span class="version">v${esc(d.version)}</span></h1>
<p class="lede">A read-only JSON API of football (soccer) data: ${n(d.leagues.length)} leagues, their matches, clubs,
line-ups, play-by-play and standings. Every answer comes from a stored snapshot; no request reaches the upstream
provider, and missing data is <code>[]</code> or <code>null</code>, never invented.</p>
</header>
${freshness(d)}
${examples(d)}
${leagues(d)}
${reference(d)}
<footer>
<p><a href="${esc(d.links.openapi)}">OpenAPI description</a> · <a href="${esc(d.links.meta)}">Service metadata</a> ·
<a href="${esc(d.links.health)}">Health</a> · API reference rendered by Swagger UI
(<a href="${assetUrl('swagger-ui-LICENSE.txt')}">Apache-2.0</a>,
<a href="${assetUrl('swagger-ui-NOTICE.txt')}">notice</a>)</p>
</footer>
</body>
</html>
`;
}
