/**
 * The server's fast lane: the plainest requests answered on the connection itself, without
 * node:http's request and response objects. For a static answer, node:http's own JavaScript costs
 * as much of a core as everything else this server does, and would keep it far behind a static
 * server's rate (docs/performance.md).
 *
 * The lane takes a strict subset of HTTP/1.1 and nothing else: a GET or HEAD whose whole head is in
 * the bytes at hand, with an origin-form target, a Host, no body framing, no connection option but
 * keep-alive, no repeated header and only printable ASCII. Anything else — a partial head, an unusual header, a
 * front-door asset, a server shutting down — hands the connection over to node:http at that request,
 * with the bytes not yet answered, and node:http keeps it from then on. So every malformed or
 * unusual request is still judged by Node's parser, and the lane never waits on a slow client.
 *
 * An answer is written as node:http writes it: the caller's headers in order, then Date, Connection
 * and Keep-Alive (tests compare the two byte for byte).
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { ApiResponse } from '../api/respond.js';

/** A request as the server's answer needs it: what node:http's IncomingMessage also gives. */
export interface Incoming {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  socket: { remoteAddress?: string };
}

/** An answered request: the response (Content-Length set) and where its bytes came from. */
export interface Answered {
  response: ApiResponse;
  source: string;
}

export interface LaneHandlers {
  /** The answer to a request, or null when node:http must serve it (the lane then hands the connection over). */
  answer(req: Incoming): Answered | null;
  /** Called once the answer is written. */
  answered(req: Incoming, answered: Answered, started: number): void;
}

const HEAD_END = Buffer.from('\r\n\r\n');
/** Longer heads go to node:http, whose limit (16 KiB) and answer (431) then apply. */
const MAX_HEAD = 8192;
const MAX_HEADERS = 64;
const REQUEST_LINE = /^(GET|HEAD) (\/[\x21-\x7e]*) HTTP\/1\.1$/;
/** A header name's characters (RFC 9110 tchar). */
const TCHAR = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]";
const TOKEN = new RegExp(`^${TCHAR}+$`);
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;
/** Headers that change how the connection or a body is handled: node:http's to interpret. */
const NODE_ONLY = new Set(['content-length', 'transfer-encoding', 'upgrade', 'expect', 'te', 'trailer']);
/** Header names, each followed by a colon. */
const NAMES = new RegExp(`^(?:${TCHAR}+:)*$`);
/** What node:http refuses to write in a header value (it would split the response). */
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** The request in `head` (its bytes up to the blank line, as latin1), or null when it is not the lane's. */
export function laneRequest(head: string, remoteAddress: string | undefined): Incoming | null {
  const lines = head.split('\r\n');
  const line = REQUEST_LINE.exec(lines[0]!);
  if (line === null || lines.length > MAX_HEADERS + 1) return null;
  // Node's IncomingMessage gives a plain object too, with lower-case names.
  const headers: Record<string, string> = {};
  for (let i = 1; i < lines.length; i++) {
    const text = lines[i]!;
    const colon = text.indexOf(':');
    if (colon <= 0) return null;
    const name = text.slice(0, colon);
    const value = text.slice(colon + 1);
    if (!TOKEN.test(name) || !FIELD_VALUE.test(value)) return null;
    const key = name.toLowerCase();
    if (NODE_ONLY.has(key) || Object.hasOwn(headers, key)) return null;
    const trimmed = value.trim();
    // What HTTP/1.1 does anyway, and what browsers and Node's agent send; any other option is node:http's.
    if (key === 'connection' && trimmed.toLowerCase() !== 'keep-alive') return null;
    headers[key] = trimmed;
  }
  if (!Object.hasOwn(headers, 'host')) return null;
  return { method: line[1], url: line[2], headers, socket: { remoteAddress } };
}

let dateSecond = Number.NaN;
let dateText = '';

/** The Date header's value, made once per second as node:http makes it. */
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/**
 * The start of the head node:http's `writeHead(status, headers)` sends on a keep-alive HTTP/1.1
 * connection: the status line and the caller's headers (`headTail` is the rest). Names and values
 * are checked as node:http checks them, all at once: a test per header cost a static answer ~3 % of its rate.
 */
export function headPrefix(status: number, headers: Readonly<Record<string, string>>): string {
  let text = `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'unknown'}\r\n`;
  let names = '';
  let values = '';
  for (const name in headers) {
    const value = headers[name]!;
    names += `${name}:`;
    values += value;
    text += `${name}: ${value}\r\n`;
  }
  if (!NAMES.test(names) || BAD_VALUE.test(values)) throw new Error('invalid response header');
  return text;
}

/** What node:http adds after the caller's headers: Date, Connection and Keep-Alive, and the blank line. */
export function headTail(keepAliveMs: number): string {
  const keepAlive = keepAliveMs ? `Keep-Alive: timeout=${Math.floor(keepAliveMs / 1000)}\r\n` : '';
  return `Date: ${httpDate()}\r\nConnection: keep-alive\r\n${keepAlive}\r\n`;
}

let tailDate = '';
let tailKeepAlive = Number.NaN;
let tailBytes = Buffer.alloc(0);

/** `headTail` as bytes, made once per second. */
function headTailBytes(keepAliveMs: number): Buffer {
  const date = httpDate();
  if (date !== tailDate || keepAliveMs !== tailKeepAlive) {
    tailBytes = Buffer.from(headTail(keepAliveMs), 'latin1');
    tailDate = date;
    tailKeepAlive = keepAliveMs;
  }
  return tailBytes;
}

/**
 * Heads of final answers (`ApiResponse.final`: a frozen header record shared by every answer from
 * one file), each made and checked once: building and encoding the head is a measurable share of a
 * static answer (docs/performance.md).
 */
const finalPrefixes = new WeakMap<Readonly<Record<string, string>>, { status: number; bytes: Buffer }>();

function finalPrefix(status: number, headers: Readonly<Record<string, string>>): Buffer {
  const made = finalPrefixes.get(headers);
  if (made?.status === status) return made.bytes;
  const bytes = Buffer.from(headPrefix(status, headers), 'latin1');
  finalPrefixes.set(headers, { status, bytes });
  return bytes;
}

export class FastLane {
  private readonly sockets = new Set<Socket>();
  private closing = false;
  private readonly toNode: (socket: Socket) => void;

  /** Takes the server's new connections; node:http gets those the lane hands over. */
  constructor(
    private readonly server: http.Server,
    private readonly handlers: LaneHandlers,
  ) {
    const [nodeListener] = server.listeners('connection') as ((socket: Socket) => void)[];
    if (!nodeListener) throw new Error('node:http did not listen for connections');
    server.removeListener('connection', nodeListener);
    this.toNode = (socket) => nodeListener.call(server, socket);
    server.on('connection', (socket: Socket) => this.accept(socket));
  }

  /** Idle connections close now; one still writing an answer closes when it is written. */
  close(): void {
    this.closing = true;
    for (const socket of this.sockets) if (socket.writableLength === 0) socket.destroy();
  }

  /** Cut every connection the lane still holds. */
  closeAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  private accept(socket: Socket): void {
    // Options that only node:http implements: its handling of a connection is then the only one.
    if (this.closing || this.server.maxRequestsPerSocket) {
      this.toNode(socket);
      return;
    }
    this.sockets.add(socket);
    let pending: Buffer | null = null;
    // For the rate limit and the log: one connection, one peer.
    const remoteAddress = socket.remoteAddress;

    const handOver = () => {
      socket.removeListener('data', onData);
      socket.removeListener('drain', onDrain);
      socket.removeListener('error', onError);
      socket.removeListener('close', onClose);
      socket.removeListener('end', onEnd);
      socket.removeListener('timeout', onTimeout);
      socket.setTimeout(0);
      this.sockets.delete(socket);
      const rest = pending;
      pending = null;
      if (rest?.length) socket.unshift(rest);
      this.toNode(socket);
      if (socket.isPaused()) socket.resume();
    };

    /** Answer what `pending` holds, request by request, until it runs out or the client must catch up. */
    const work = () => {
      while (pending !== null && !socket.destroyed) {
        if (socket.writableNeedDrain) {
          socket.pause();
          return;
        }
        if (this.closing) return handOver();
        const end = pending.indexOf(HEAD_END);
        if (end < 0 || end > MAX_HEAD) return handOver();
        const req = laneRequest(pending.toString('latin1', 0, end), remoteAddress);
        if (req === null) return handOver();
        const started = performance.now();
        const answered = this.handlers.answer(req);
        if (answered === null) return handOver();
        const next = end + HEAD_END.length;
        pending = next < pending.length ? pending.subarray(next) : null;
        const { response } = answered;
        let prefix: Buffer | string;
        try {
          prefix = response.final
            ? finalPrefix(response.status, response.headers)
            : headPrefix(response.status, response.headers);
        } catch {
          // A header node:http would refuse to write: nothing is sent, and the connection cannot go on.
          socket.destroy();
          return;
        }
        socket.cork();
        if (typeof prefix === 'string') socket.write(prefix, 'latin1');
        else socket.write(prefix);
        socket.write(headTailBytes(this.server.keepAliveTimeout));
        if (response.sendBody && response.body.length) socket.write(response.body);
        socket.uncork();
        this.handlers.answered(req, answered, started);
      }
      if (this.closing && socket.writableLength === 0) socket.destroy();
    };

    const onData = (chunk: Buffer) => {
      pending = pending === null ? chunk : Buffer.concat([pending, chunk]);
      work();
    };
    const onDrain = () => {
      work();
      if (this.sockets.has(socket) && socket.isPaused() && !socket.writableNeedDrain) socket.resume();
    };
    const onError = () => socket.destroy();
    // A client still being sent an answer is not idle (node:http sets no timeout on one either).
    const onTimeout = () => {
      if (socket.writableLength === 0) socket.destroy();
    };
    const onClose = () => this.sockets.delete(socket);
    // The client has sent all it will; node:http ends its side too, once the answers are written.
    // (A paused socket emits no 'end', so nothing is still waiting in `pending` here.)
    const onEnd = () => socket.end();

    socket.on('data', onData);
    socket.on('drain', onDrain);
    socket.on('error', onError);
    socket.on('close', onClose);
    socket.on('end', onEnd);
    // As node:http closes a keep-alive connection that asks for nothing more.
    if (this.server.keepAliveTimeout) socket.setTimeout(this.server.keepAliveTimeout);
    socket.on('timeout', onTimeout);
  }
}
