/**
 * Where a pre-rendered request's file lives: `_s/`, then the first four segments of its path as
 * directories (`get/soccer/<league>/<resource>`), then a name from the rest of the path and the
 * query: `_s/get/soccer/eng.1/fixtures/page-2,status-all.json`,
 * `_s/get/soccer/eng.1/events/9001~plays~important-true.json`. One directory per league and
 * resource however many matches it holds: creating directories is what a build's file system pays
 * most for, and a directory per match would make their number grow with the matches.
 *
 * Plain string code with no Node built-ins: the edge router (edge/router.ts) bundles it to find a
 * file from an index entry that holds only its name.
 */

/** Files live under this prefix, never at public API paths; the CDN reaches them only through rules. */
export const STATIC_PREFIX = '_s';

/** Path segments that name a file's directory. */
const DIR_SEGMENTS = 4;
/** Joins the rest of the path and the query into a name; never part of a segment (plan.ts checks). */
const JOIN = '~';

/** The file's directory, from the request path: `_s/get/soccer/eng.1/events`. */
export function fileDir(path: string): string {
  return [STATIC_PREFIX, ...path.split('/').slice(1, 1 + DIR_SEGMENTS)].join('/');
}

/**
 * What a file's release-relative path starts with, from its request path's segments (after the
 * path's leading `/`): everything before the name of its query.
 */
export function filePrefix(segments: readonly string[]): string {
  // Built in one pass: a build names every file it plans.
  let file = STATIC_PREFIX;
  for (let i = 0; i < segments.length; i++) file += (i <= DIR_SEGMENTS ? '/' : JOIN) + segments[i];
  return `${file}${segments.length <= DIR_SEGMENTS ? '/' : JOIN}`;
}

/**
 * The request path a file was named from (filePrefix's inverse), or null for a file not named so.
 * No segment holds the joiner, so the name's last joiner or slash ends the path's part.
 */
export function requestPathOf(file: string): string | null {
  if (!file.startsWith(`${STATIC_PREFIX}/`)) return null;
  const end = Math.max(file.lastIndexOf('/'), file.lastIndexOf(JOIN));
  if (end <= STATIC_PREFIX.length) return null;
  return file.slice(STATIC_PREFIX.length, end).split(JOIN).join('/');
}

export const NAME_JOIN = JOIN;
