/**
 * The answer to a request node:http's parser rejects (a bad request line, oversized headers). There
 * is no request to put through the server's answers, yet the client still gets a JSON error, as
 * every malformed request does (docs/json-api.md, "Errors"), written straight to the socket.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { CORS, JSON_TYPE, SHARED_NO_STORE } from '../api/headers.js';

/** An error's headers, as the render core gives every error (api/headers.ts), written as lines. */
const HEADER_LINES = Object.entries({
  'Content-Type': JSON_TYPE,
  'Cache-Control': 'no-store',
  ...SHARED_NO_STORE,
  ...CORS,
})
  .map(([k, v]) => `${k}: ${v}\r\n`)
  .join('');

/** `log`: where the server's log takes a line, or null when it logs nothing. */
export function answerClientError(
  err: NodeJS.ErrnoException,
  socket: Socket,
  log: ((line: string) => void) | null,
): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'HPE_URI_OVERFLOW' ? 414 : 400;
  const body = JSON.stringify({ error: status === 400 ? 'Bad request' : http.STATUS_CODES[status] });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${HEADER_LINES}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  log?.(JSON.stringify({ time: new Date().toISOString(), status, error: err.code ?? 'client error' }));
}
