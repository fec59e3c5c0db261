/**
 * Who gets into a bounded memory once it is full (the hot-file memory, byte-lru.ts, and the memo of
 * request targets, resolution-memo.ts). Clients that ask for more than it holds, one after another
 * in a round (a crawler, a mirror, a benchmark's request list), would otherwise have each item
 * replaced before it is asked for again, and every answer would read its file. Letting in one
 * newcomer in eight, most of what is held stays for the next round, and an item asked for again and
 * again still gets in after a few asks (docs/performance.md).
 */
export const ADMIT_ONE_IN = 8;

/** Newcomers that would push others out, counted: one in `oneIn` is let in. */
export class Crowding {
  private newcomers = 0;

  constructor(private readonly oneIn = ADMIT_ONE_IN) {}

  admits(): boolean {
    return ++this.newcomers % this.oneIn === 0;
  }
}
