/**
 * Where the front door lives in a published tree and on the wire. Shared by the page (which links
 * its assets), the build (which places them), the CDN rules (which must leave them reachable) and
 * the server (which serves them), so these names are spelled once.
 */
import { CORS } from '../api/headers.js';

/** The front door's file at the root of a release: what Netlify serves for `/`. */
export const FRONT_DOOR_FILE = 'index.html';

/** The directory of the front door's static assets, in a release and as a URL prefix (`/_fd/…`). */
export const ASSET_DIR = '_fd';

export interface AssetFile {
  /** Its name under `/_fd/`. */
  name: string;
  /** `renderer`: a file of the swagger-ui-dist package; `own`: the project's assets/frontdoor/. */
  from: 'renderer' | 'own';
  /** Its name where it comes from. */
  source: string;
}

export const ASSET_FILES: readonly AssetFile[] = [
  { name: 'swagger-ui-bundle.js', from: 'renderer', source: 'swagger-ui-bundle.js' },
  { name: 'swagger-ui.css', from: 'renderer', source: 'swagger-ui.css' },
  // Apache-2.0: whoever redistributes the bundle ships its licence, its notice and its third-party licences.
  { name: 'swagger-ui-LICENSE.txt', from: 'renderer', source: 'LICENSE' },
  { name: 'swagger-ui-NOTICE.txt', from: 'renderer', source: 'NOTICE' },
  { name: 'swagger-ui-bundle.js.LICENSE.txt', from: 'renderer', source: 'swagger-ui-bundle.js.LICENSE.txt' },
  { name: 'frontdoor.css', from: 'own', source: 'frontdoor.css' },
  { name: 'frontdoor.js', from: 'own', source: 'frontdoor.js' },
];

/** The URL of an asset. */
export const assetUrl = (name: string): string => `/${ASSET_DIR}/${name}`;

/**
 * Assets keep fixed names, so they are revalidated rather than cached for long: the same lifetime as
 * the page that links them, which keeps a page and its script from drifting apart for long.
 */
export const ASSET_CACHE_CONTROL = 'public, max-age=60';

/** What every asset answer carries, from the CDN (`_headers`) and from `fds serve` alike. */
export const ASSET_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': ASSET_CACHE_CONTROL,
  'X-Content-Type-Options': 'nosniff',
  ...CORS,
};

export const HTML_TYPE = 'text/html; charset=utf-8';
