/**
 * The publishing loop's timing: a cycle every `everyMs` (start to start), never two at once — a
 * cycle that runs long is followed at once by the next — until the signal stops it. A cycle that
 * throws is reported and the loop goes on: one bad cycle must not take the server down with it.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface LoopOptions {
  /** Start to start; a function is asked after each cycle (a cadence that follows the matches). */
  everyMs: number | (() => number);
  signal: AbortSignal;
  /** Number of the first cycle this loop runs (the caller may have run some before). */
  first?: number;
  /** When the first of them may start (performance.now() time; default: now). */
  startAt?: number;
  cycle: (n: number) => Promise<void>;
  onError: (n: number, err: unknown) => void;
  now?: () => number;
}

/** Resolves once the signal has stopped the loop and no cycle is running. */
export async function runLoop(opts: LoopOptions): Promise<void> {
  const now = opts.now ?? (() => performance.now());
  let next = opts.startAt ?? now();
  for (let n = opts.first ?? 1; !opts.signal.aborted; n++) {
    const wait = next - now();
    if (wait > 0) {
      try {
        await sleep(wait, undefined, { signal: opts.signal });
      } catch {
        return; // stopped while waiting
      }
    }
    const started = now();
    try {
      await opts.cycle(n);
    } catch (err) {
      opts.onError(n, err);
    }
    // Start to start; after a cycle that overran its slot the next one starts at once (no burst of missed ones).
    next = started + (typeof opts.everyMs === 'number' ? opts.everyMs : opts.everyMs());
  }
}
