/**
 * When to look again at which release `dist` stands for. Publishing swaps the `dist` symlink with
 * rename(2) in its parent directory, so a watch on that directory hears of each swap as it
 * happens; between swaps the server trusts what it loaded instead of resolving the link and
 * stating the manifest on every request. A periodic look covers what a watch cannot see (a parent
 * that is itself a swapped link, a manifest rewritten in place, a watch the OS refused).
 */
import fs from 'node:fs';
import path from 'node:path';

export class ReleaseWatch {
  private watcher: fs.FSWatcher | null = null;
  private stale = true;
  private lookedAt = Number.NEGATIVE_INFINITY;

  /** Without a watch every request looks, as correct as with one, only slower. */
  constructor(
    dir: string,
    private readonly recheckMs: number,
  ) {
    const abs = path.resolve(dir);
    const name = path.basename(abs);
    try {
      this.watcher = fs.watch(path.dirname(abs), { persistent: false }, (_event, changed) => {
        if (changed === null || changed === name) this.stale = true;
      });
      this.watcher.on('error', () => this.close());
    } catch {
      this.watcher = null;
    }
  }

  get watching(): boolean {
    return this.watcher !== null;
  }

  /** True when the release may have changed since the last look; the caller looks now. */
  due(): boolean {
    if (this.watcher === null) return true;
    const now = performance.now();
    if (!this.stale && now - this.lookedAt < this.recheckMs) return false;
    this.stale = false;
    this.lookedAt = now;
    return true;
  }

  /** What was loaded may already be gone (a pruned release): look again on the next request. */
  invalidate(): void {
    this.stale = true;
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
  }
}
