/**
 * What the transport adds to an answer, the same for node:http and the fast lane, and for the
 * static lookup's finished answers (static-lookup.ts), which are made once and kept.
 */
import type { ApiResponse } from '../api/respond.js';
import { compress, compressible, compressibleSize, negotiate } from './compress.js';

/**
 * Compression, and the one header that belongs to the transport: the length of what is sent. An
 * answer with `Content-Encoding` is already in that coding (the static lookup's stored variants).
 */
export function encode(response: ApiResponse, acceptEncoding: string | string[] | undefined): void {
  if (response.final) return;
  const { standsFor } = response;
  if (standsFor) {
    // A 304 has no body to code, and says what its 200 would vary on.
    if (compressibleSize(standsFor.bytes, standsFor.contentType)) response.headers.Vary = 'Accept-Encoding';
    return;
  }
  if (!response.headers['Content-Encoding'] && compressible(response.body, response.headers)) {
    response.headers.Vary = 'Accept-Encoding';
    const coding = negotiate(acceptEncoding);
    if (coding) {
      response.body = compress(response.body, coding);
      response.headers['Content-Encoding'] = coding;
    }
  }
  if (response.status !== 204 && response.status !== 304) {
    response.headers['Content-Length'] = String(response.body.length);
  }
}
