/**
 * Finishing a response, for every way one is answered — the render core, the server's static
 * files, the CDN emulator, the Netlify Function: the strong ETag of a 200, `If-None-Match` → 304,
 * and HEAD. `Content-Length` is the transport's: it knows the bytes it sends (after compression).
 */
import { etagOf } from './etag.js';
import { CORS, JSON_TYPE, SHARED_NO_STORE, ifNoneMatch } from './headers.js';
import { serializeWithRaw } from './raw-json.js';

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** The entity. For HEAD it is the body a GET would get (its length is the one to state), never sent. */
  body: Buffer;
  /** False for HEAD, 204 and 304: the transport sends the headers only. */
  sendBody: boolean;
  /**
   * The headers already hold what the transport adds, in a frozen record shared between answers (a
   * static answer the server keeps, server/static-lookup.ts): the transport adds and changes nothing.
   */
  final?: boolean;
  /**
   * A 304's: the length and type of the entity it stands for, so the transport says what the 200
   * would vary on (RFC 9110 §15.4.5: a 304 repeats the 200's `Vary`).
   */
  standsFor?: { bytes: number; contentType: string | undefined };
}

export interface RequestHead {
  method: string;
  /**
   * By lower-case name, as every HTTP header record gives them (node:http's, the fast lane's, the
   * Fetch API's that the Netlify Function reads): a header is read by its name, never searched for.
   */
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

const EMPTY = Buffer.alloc(0);

/** A request header by its lower-case name. */
export function requestHeader(req: RequestHead, name: string): string | string[] | undefined {
  return req.headers[name];
}

/**
 * `headers` are the answer's own, in order; a 200 gets its ETag (the given one, which must be the
 * body's, or the body's hash) appended, and a conditional GET naming it gets a 304.
 */
export function finishResponse(
  req: RequestHead,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
  etag?: string,
  /** The entity's length when `body` is left empty (a file not read for a 304). */
  bytes = body.length,
): ApiResponse {
  if (status === 200) {
    const tag = etag ?? etagOf(body);
    headers.ETag = tag;
    if (ifNoneMatch(requestHeader(req, 'if-none-match'), tag)) {
      const { 'Content-Type': contentType, ...kept } = headers;
      return { status: 304, headers: kept, body: EMPTY, sendBody: false, standsFor: { bytes, contentType } };
    }
  }
  return { status, headers, body, sendBody: req.method !== 'HEAD' && status !== 204 && status !== 304 };
}

/** A JSON answer with the render core's header order: type, the caller's, then CORS. */
export function jsonResponse(
  req: RequestHead,
  status: number,
  extra: Record<string, string>,
  payload: unknown,
): ApiResponse {
  const body = serializeWithRaw(payload);
  return finishResponse(req, status, { 'Content-Type': JSON_TYPE, ...extra, ...CORS }, body);
}

/** `{"error": …}`, never cached, by a browser or a shared cache. */
export function errorResponse(
  req: RequestHead,
  status: number,
  message: string,
  extra: Record<string, string> = {},
): ApiResponse {
  return jsonResponse(req, status, { 'Cache-Control': 'no-store', ...SHARED_NO_STORE, ...extra }, { error: message });
}

/** A CORS preflight: no body. */
export function emptyResponse(status: number, headers: Record<string, string>): ApiResponse {
  return { status, headers, body: EMPTY, sendBody: false };
}
