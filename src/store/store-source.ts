/**
 * A long-running reader's handle on its store (the server's and the Netlify Function's). The server starts even when the store cannot be opened (health
 * then says 503 instead of the process dying) and tries again, at most once per retry interval,
 * on later requests — so a store that appears or is repaired later is picked up without restart.
 * A store file replaced by another (a new snapshot moved into place) is reopened the same way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StoreReader } from './read/reader.js';

export type StoreProblem = 'disconnected' | 'error';

/**
 * The server reads its store through a memory map of up to this much: a dynamic answer then reads
 * stored rows where they lie instead of copying each page (docs/performance.md, "Serving"). Bounded,
 * so the server's resident memory stays bounded whatever the store's size.
 */
export const SERVE_MAP_BYTES = 256 * 1024 * 1024;

export class StoreSource {
  private reader: StoreReader | null = null;
  private identity: string | null = null;
  private lastAttempt = -Infinity;
  private lastCheck = -Infinity;
  /** Why the store could not be opened, when it could not. */
  error: string | null = null;
  /** `disconnected`: there is no store file; `error`: there is one and it cannot be read. */
  problem: StoreProblem | null = 'disconnected';

  constructor(
    readonly file: string,
    private readonly retryMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get name(): string {
    return path.basename(this.file);
  }

  get(): StoreReader | null {
    const t = this.now();
    if (this.reader) {
      if (t - this.lastCheck < this.retryMs) return this.reader;
      this.lastCheck = t;
      if (this.fileIdentity() === this.identity) return this.reader;
      this.reset();
    }
    if (t - this.lastAttempt < this.retryMs) return null;
    this.lastAttempt = t;
    this.identity = this.fileIdentity();
    try {
      this.reader = StoreReader.open(this.file, { mapBytes: SERVE_MAP_BYTES });
      this.lastCheck = t;
      this.error = null;
      this.problem = null;
    } catch (err) {
      this.error = err instanceof Error ? err.message : String(err);
      this.problem = this.identity === null ? 'disconnected' : 'error';
    }
    return this.reader;
  }

  /** Drop the connection after it failed a query; the next request opens the store again. */
  reset(): void {
    if (!this.reader) return;
    try {
      this.reader.close();
    } catch {
      // Closing a broken connection may fail too; it is being discarded either way.
    }
    this.reader = null;
    this.lastAttempt = -Infinity;
  }

  close(): void {
    this.reader?.close();
    this.reader = null;
  }

  private fileIdentity(): string | null {
    try {
      const st = fs.statSync(this.file);
      return `${st.dev}:${st.ino}`;
    } catch {
      return null;
    }
  }
}
