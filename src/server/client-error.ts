/**
 * The answer to a request node:http's parser rejects (a bad request line, oversized headers). There
 * is no request to put through the server's answers, yet the client still gets a JSON error, as
 * every malformed request does (docs/json-api.md, "Errors"), written straight to the socket.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { JSON_TYPE } from '../api/headers.js';

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
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: ${JSON_TYPE}\r\nCache-Control: no-store\r\n` +
      'CDN-Cache-Control: no-store\r\nNetlify-CDN-Cache-Control: no-store\r\n' +
      `Access-Control-Allow-Origin: *\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
  log?.(JSON.stringify({ time: new Date().toISOString(), status, error: err.code ?? 'client error' }));
}
