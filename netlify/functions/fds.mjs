// The fallback as a Netlify Function: src/netlify/function.ts, compiled and bundled into one module by
// `npm install` (prepare: tsc, then scripts/bundle.mjs) so a cold start loads one file, not hundreds.
export { default } from '../../build/netlify/function.bundle.js';
