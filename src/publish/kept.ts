/**
 * Kept parts (route.ts `Keeps`): where an incremental build renders a response again, the part its
 * route keeps is spliced in from the published file when the changes since leave it as it was —
 * not read from the store and serialized again. A day's build at demo scale 4 so renders 98 of its
 * 806 responses (fixtures pages of finished matches, 60 MB, most of which gained only a count).
 */
import type { ChangeView } from '../api/reads.js';
import { topic } from '../api/reads.js';
import type { StoreReader } from '../store/read/reader.js';
import type { ManifestEntry } from '../release/manifest.js';
import type { FilePlacer } from './place.js';
import type { PlannedFile } from './plan.js';
import type { BuildScope } from './scope.js';

/** A kept part: the published file's bytes from `at` to the one before its last (the body's closing brace). */
export interface KeptPart {
  at: number;
  /** The published file's size, as its manifest line says. */
  bytes: number;
}

const NONE: ReadonlySet<string> = new Set();

/** How far into a file its kept part's member may start (a fixtures page's: ~400 bytes). */
const HEAD = 4096;

export class KeptParts implements ChangeView {
  constructor(
    private readonly store: StoreReader,
    private readonly scope: Extract<BuildScope, { kind: 'changes' }>,
    private readonly placer: FilePlacer,
  ) {}

  get topics(): ReadonlySet<string> {
    return this.scope.topics;
  }

  matchesOf(league: string): ReadonlySet<string> {
    return this.scope.matches.get(league) ?? NONE;
  }

  /** The kept part of a file the build renders again (`before`: its published manifest line), if it stands. */
  of(file: PlannedFile, before: ManifestEntry): KeptPart | null {
    const keeps = file.route.keeps;
    // A change this code cannot place may have touched anything: no part is known to stand.
    if (!keeps || !file.resolved || before.status !== 200 || this.topics.has(topic.everything)) return null;
    const head = this.placer.readPublished(file.file, Math.min(HEAD, before.bytes));
    const member = `,${JSON.stringify(keeps.field)}:`;
    const at = head ? head.indexOf(member) : -1;
    if (at < 0) return null;
    let rest: unknown;
    try {
      rest = JSON.parse(`${head!.toString('utf8', 0, at)}}`);
    } catch {
      return null;
    }
    if (typeof rest !== 'object' || rest === null || Array.isArray(rest)) return null;
    const { params, query } = file.resolved;
    const stands = keeps.stands({ store: this.store, params, query }, rest as Record<string, unknown>, this);
    return stands ? { at: at + member.length, bytes: before.bytes } : null;
  }
}
