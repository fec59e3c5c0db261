/** Talking to a server below the level of an HTTP client: raw bytes in, parsed status/headers/body out. */
import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function rawExchange(port: number, bytes: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(bytes);
    // Half-close: the server answers, then closes (Connection: close below).
    socket.end();
  });
}

export const get = (target: string, extra = '') =>
  `GET ${target} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n${extra}\r\n`;

/** One answer read off a connection: its head with the Date value blanked (it is the clock's), and its body. */
export interface WireAnswer {
  head: string;
  body: Buffer;
}

export interface Conversation {
  answers: WireAnswer[];
  /** Bytes after the last whole answer (an answer cut off by the server closing). */
  rest: Buffer;
  closed: boolean;
}

/**
 * Writes `pieces` on one connection (`gapMs` apart), then reads answers until `count` are whole or the
 * server closes. `heads[i]`: the i-th request was a HEAD (its answer has no body whatever its length).
 * With `end`, the client half-closes after its last piece, as a client with nothing more to ask does.
 */
export function converse(
  port: number,
  pieces: (string | Buffer)[],
  opts: { count?: number; heads?: boolean[]; gapMs?: number; end?: boolean } = {},
): Promise<Conversation> {
  const count = opts.count ?? Number.POSITIVE_INFINITY;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const answers: WireAnswer[] = [];
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ answers, rest: buf, closed });
    };
    const take = () => {
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.toString('latin1', 0, end + 4);
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
        const length = /\r\ncontent-length: *(\d+)/i.exec(head);
        const bodiless = opts.heads?.[answers.length] || status === 304 || status === 204;
        if (!bodiless && !length) return; // read to the close
        const size = bodiless ? 0 : Number(length![1]);
        if (buf.length < end + 4 + size) return;
        answers.push({
          head: head.replace(/\r\nDate: [^\r]*/i, '\r\nDate: -'),
          body: buf.subarray(end + 4, end + 4 + size),
        });
        buf = buf.subarray(end + 4 + size);
        if (answers.length >= count) return finish(false);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      take();
    });
    socket.on('error', (err) => (done ? undefined : reject(err)));
    socket.on('close', () => finish(true));
    socket.once('connect', async () => {
      for (const [i, piece] of pieces.entries()) {
        if (i > 0 && opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs));
        if (!socket.destroyed) socket.write(piece);
      }
      if (opts.end && !socket.destroyed) socket.end();
    });
  });
}

/** The same conversation's answers as one text, for comparing two servers byte for byte. */
export const transcript = (c: Conversation): string =>
  [
    ...c.answers.map((a) => a.head + a.body.toString('latin1')),
    c.rest.toString('latin1').replace(/\r\nDate: [^\r]*/i, '\r\nDate: -'),
  ].join('');
