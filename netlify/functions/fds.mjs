// The fallback as a Netlify Function: src/netlify/function.ts, compiled by `npm install` (prepare).
export { default } from '../../build/netlify/function.js';
