/**
 * Where the Netlify Function's own files sit, relative to the project root — the function's working
 * directory on Netlify, since netlify.toml `included_files` ships them at their paths in the project —
 * and where, in a release, the per-match bodies it reads are.
 */

/** The slim store `fds build` writes beside the release (function-package.ts) and the function opens. */
export const FUNCTION_STORE = 'data/function.sqlite';
/** What the build knows of the function's package: the snapshot it holds, its sizes (function-package.ts). */
export const FUNCTION_STATE = 'data/function.json';
/**
 * The per-match bodies in a release: `_b/<league>/<match>-<tag>.bin` (match-body.ts), static files of
 * the deploy like any other, so Netlify uploads only those whose digest is new to the site; the
 * function fetches them from its own deploy (function.ts).
 */
export const BODIES_DIR = '_b';
