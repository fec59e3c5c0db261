/**
 * The server's memory of what recent request targets mean. Resolution (api/resolve.ts) depends on
 * the request target and the code alone — not on the store or the build — so a target asked for
 * again (clients poll the same URLs) is not parsed and validated again: validation is a large share
 * of what a static answer costs above Node's own HTTP handling (docs/performance.md). Beside each
 * resolution sits a slot the static lookup fills per release (static-lookup.ts `FileSlot`): that
 * part does depend on the build, and names the release it holds for. Bounded in entries and key
 * length.
 */
import type { Resolution } from '../api/resolve.js';
import { resolve } from '../app/resolve.js';
import type { FileSlot } from './static-lookup.js';
import { fileSlot } from './static-lookup.js';
import { ADMIT_ONE_IN, Crowding } from '../util/crowding.js';

/** A request target as the server remembers it: what it means, and where a build last had its file. */
export interface Target {
  readonly resolution: Resolution;
  readonly file: FileSlot;
}

/** Longer targets are resolved every time: they are rare, and would let a client fill the memory. */
const MAX_KEY = 512;

export class ResolutionMemo {
  private readonly memo = new Map<string, Target>();
  private readonly crowding: Crowding;

  /**
   * `admitOneIn`: once full, one new target in this many is remembered (crowding.ts), so a client
   * going round more targets than the memo holds still finds most of them remembered
   * (docs/performance.md).
   */
  constructor(
    private readonly size = 8192,
    admitOneIn = ADMIT_ONE_IN,
  ) {
    this.crowding = new Crowding(admitOneIn);
  }

  /**
   * `key`: the target as it came, when it is the path and query as they are (an origin-form target);
   * a key made of the two would be a new string to flatten and hash on every request.
   */
  resolve(path: string, rawQuery: string, key = `${path}?${rawQuery}`): Target {
    if (key.length > MAX_KEY) return { resolution: resolve(path, rawQuery), file: fileSlot() };
    let r = this.memo.get(key);
    if (r === undefined) {
      r = { resolution: resolve(path, rawQuery), file: fileSlot() };
      if (this.memo.size < this.size) this.memo.set(key, r);
      else if (this.crowding.admits()) {
        // Oldest first out: the set of targets clients poll changes slowly.
        this.memo.delete(this.memo.keys().next().value!);
        this.memo.set(key, r);
      }
    }
    return r;
  }
}
