/** gzip/brotli for the server's responses when the client accepts them; small bodies stay plain. */
import zlib from 'node:zlib';

const MIN_BYTES = 1024;

export type Coding = 'br' | 'gzip';

function parseAcceptEncoding(value: string): Coding | null {
  const q = new Map<string, number>();
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const accepts = (coding: string) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

/** Clients send few distinct Accept-Encoding values; remembering short ones spares parsing every request. */
const remembered = new Map<string, Coding | null>();

/** The best coding the client accepts with q > 0: br, then gzip, else none. */
export function negotiate(acceptEncoding: string | string[] | undefined): Coding | null {
  if (!acceptEncoding) return null;
  const value = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding;
  let coding = remembered.get(value);
  if (coding === undefined) {
    coding = parseAcceptEncoding(value);
    if (value.length <= 200) {
      if (remembered.size >= 256) remembered.clear();
      remembered.set(value, coding);
    }
  }
  return coding;
}

/** Worth compressing: JSON or HTML (the front door) of at least a kilobyte. */
export function compressibleSize(bytes: number, contentType: string | undefined): boolean {
  const type = contentType ?? '';
  return bytes >= MIN_BYTES && (type.startsWith('application/json') || type.startsWith('text/html'));
}

export function compressible(body: Buffer, headers: Record<string, string>): boolean {
  return compressibleSize(body.length, headers['Content-Type']);
}

export function compress(body: Buffer, coding: Coding): Buffer {
  if (coding === 'gzip') return zlib.gzipSync(body, { level: 6 });
  // Quality 5: within a few per cent of the maximum ratio on JSON at a small fraction of the cost.
  return zlib.brotliCompressSync(body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
}
