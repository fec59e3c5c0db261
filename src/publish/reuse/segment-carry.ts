/**
 * Carrying a whole segment over (manifest-ranges.ts; its switch, `manifest-ranges`, leaves this
 * object out and the build plans every file). While the plan walks a segment, each match group that
 * nothing changed and whose files stand as published is held back instead of planned; at the
 * segment's end, if every group of it was held and they are the groups the published build put under
 * its key, the segment is carried over as the published manifest's bytes and its spool segment,
 * without planning a file. The first group that cannot be held ends the hope: the held ones are
 * planned after all, and so is the rest of the segment.
 */
import type { PlanGroup } from '../plan/plan.js';
import type { SpoolSegments } from '../rules/spool-reader.js';
import type { SegmentSummary } from '../rules/spool-segments.js';
import { engaged } from '../../util/switches.js';
import type { ManifestRange, readRanges } from './manifest-ranges.js';
import type { PreviousManifest } from './previous.js';

/** A segment carried over whole: the published manifest's lines for it, its range and its spool segment. */
export interface CarriedSegment {
  lines: Buffer;
  range: ManifestRange;
  summary: SegmentSummary;
}

const NONE: readonly PlanGroup[] = [];

export class SegmentCarry {
  private held: PlanGroup[] = [];
  /** Whether the open segment may still be carried over whole. */
  private whole = true;

  constructor(
    /** The published build's ranges, by segment key. */
    private readonly published: ReturnType<typeof readRanges>,
    private readonly spool: SpoolSegments,
    private readonly known: PreviousManifest,
    /** Whether a group may wait for its segment's end: nothing it reads changed, its files stand as published. */
    private readonly stands: (group: PlanGroup) => boolean,
  ) {}

  /** A segment opens. */
  open(): void {
    this.held = [];
    this.whole = true;
  }

  /** Hold `group` back when the segment may still be carried whole and it stands: true when held. */
  hold(group: PlanGroup | null): boolean {
    if (!this.whole || !group || !this.stands(group)) return false;
    this.held.push(group);
    return true;
  }

  /** The segment will not be carried whole: the groups held so far, to plan file by file. */
  letGo(): readonly PlanGroup[] {
    // Asked before every entry planned: once the hope is gone, nothing is held and nothing is made.
    if (!this.whole) return NONE;
    const held = this.held;
    this.whole = false;
    this.held = [];
    return held;
  }

  /**
   * At the segment's end: the segment carried over whole when every group of it was held, they are
   * the groups the published range was made of (`groups`: their digest), and the spool segment and
   * manifest lines are there as the range says; else null, and `letGo` gives what to plan.
   */
  carry(key: string, groups: string | null): CarriedSegment | null {
    if (!this.whole || !this.held.length) return null;
    const range = this.published.get(key);
    const summary = range?.groups === groups && range.count === this.held.length ? this.spool.intact(key) : null;
    const lines = range && summary?.carriable ? this.known.skip(range.at, range.to, range.files) : null;
    if (!lines) return null;
    this.held = [];
    engaged('manifest-ranges');
    return { lines, range: range!, summary: summary! };
  }
}
