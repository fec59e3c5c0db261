/**
 * Where the Netlify Function's own files sit, relative to the project root — the function's working
 * directory on Netlify, since netlify.toml `included_files` ships them at their paths in the project —
 * and where the deploy's blobs are written for the deploy to upload.
 */

/** The slim store `fds build` writes beside the release (function-package.ts) and the function opens. */
export const FUNCTION_STORE = 'data/function.sqlite';
/** What the build knows of the function's package: the snapshot it holds, its sizes (function-package.ts). */
export const FUNCTION_STATE = 'data/function.json';
/**
 * The deploy's blobs, one directory per key holding a file `blob` (Netlify's file-based uploads,
 * frameworks API v1): `netlify deploy` and Netlify's own builds upload them to the deploy's store.
 */
export const DEPLOY_BLOBS = '.netlify/v1/blobs/deploy';
