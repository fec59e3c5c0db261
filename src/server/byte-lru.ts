/**
 * Buffers held within a byte budget, the least recently used dropped first. A Map keeps insertion
 * order, so re-inserting on each hit makes its first key the coldest: no list to maintain.
 */
export class ByteLru {
  private readonly items = new Map<string, Buffer>();
  private used = 0;

  /** `budget` bytes in all; an item above `budget / 8` is never held, so one big file cannot flush the rest. */
  constructor(readonly budget: number) {}

  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.items.size;
  }

  get(key: string): Buffer | undefined {
    const value = this.items.get(key);
    if (value !== undefined) {
      this.items.delete(key);
      this.items.set(key, value);
    }
    return value;
  }

  set(key: string, value: Buffer): void {
    const old = this.items.get(key);
    if (old !== undefined) {
      this.items.delete(key);
      this.used -= old.length;
    }
    if (value.length > this.budget / 8) return;
    this.items.set(key, value);
    this.used += value.length;
    while (this.used > this.budget) {
      const [coldest, buf] = this.items.entries().next().value!;
      this.items.delete(coldest);
      this.used -= buf.length;
    }
  }

  clear(): void {
    this.items.clear();
    this.used = 0;
  }
}

/**
 * A buffer that owns exactly its bytes. zlib's sync output can be a view into a larger chunk, and
 * small copies come from Node's shared pool; either would keep more memory alive than the budget counts.
 */
export function exactBuffer(buf: Buffer): Buffer {
  if (buf.byteOffset === 0 && buf.buffer.byteLength === buf.length) return buf;
  const own = Buffer.allocUnsafeSlow(buf.length);
  buf.copy(own);
  return own;
}
