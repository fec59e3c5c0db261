/**
 * Buffers held within a byte budget, the coldest dropped first, and only some new ones let in once
 * the budget is spent. A hit only marks its item used
 * (one Map lookup: moving it to the end on each hit cost a static answer about 5 % of its rate);
 * eviction walks from the oldest and gives a used item a second chance, moving it to the end
 * unmarked. A Map keeps insertion order, so there is no list to maintain.
 *
 * An item may be kept by reference (`entry`) by whoever answers from it again and again: it marks
 * it used itself, and sees `value` turn null when the item is dropped, so the budget still bounds
 * what is held.
 */
import { ADMIT_ONE_IN, Crowding } from './crowding.js';

export interface HeldBuffer {
  /** Null once the item was dropped (evicted, replaced or cleared). */
  value: Buffer | null;
  used: boolean;
}

export class ByteLru {
  private readonly items = new Map<string, HeldBuffer>();
  private used = 0;
  private readonly crowding: Crowding;

  /**
   * `budget` bytes in all; an item above `budget / 8` is never held, so one big file cannot flush the
   * rest. Once the budget is spent, one new item in `admitOneIn` is held (crowding.ts).
   */
  constructor(
    readonly budget: number,
    admitOneIn = ADMIT_ONE_IN,
  ) {
    this.crowding = new Crowding(admitOneIn);
  }

  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.items.size;
  }

  /** The item under `key`, marked used. */
  entry(key: string): HeldBuffer | undefined {
    const item = this.items.get(key);
    if (item !== undefined) item.used = true;
    return item;
  }

  /**
   * Hold `value` under `key`; the item, or null when it is too large to hold or, the budget being
   * spent, not its turn to be held (crowding.ts). `costly`: held whenever it fits the budget at
   * all, as a value that costs far more to make again than a file read (a compressed variant).
   */
  set(key: string, value: Buffer, costly = false): HeldBuffer | null {
    const old = this.items.get(key);
    if (old !== undefined) {
      this.items.delete(key);
      this.drop(old);
    }
    if (value.length > this.budget / 8) return null;
    if (!costly && this.used + value.length > this.budget && !this.crowding.admits()) return null;
    const held: HeldBuffer = { value, used: false };
    this.items.set(key, held);
    this.used += value.length;
    // Ends: each pass over an item unmarks it, so a full round finds one to drop.
    while (this.used > this.budget) {
      const [oldest, item] = this.items.entries().next().value!;
      this.items.delete(oldest);
      if (item.used) {
        item.used = false;
        this.items.set(oldest, item);
      } else this.drop(item);
    }
    return held;
  }

  clear(): void {
    for (const item of this.items.values()) item.value = null;
    this.items.clear();
    this.used = 0;
  }

  private drop(item: HeldBuffer): void {
    this.used -= item.value!.length;
    item.value = null;
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
