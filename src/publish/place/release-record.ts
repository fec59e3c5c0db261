/**
 * What a build records of each file, in plan order (../in-order.ts takes results in that order):
 * its manifest line and its segment's range (manifest-ranges.ts), its rule candidates, its entry in
 * the target's index, and the build's counts.
 */
import type { BuildOptions } from '../options.js';
import type { Answer, CarriedFile } from '../reuse/carried-file.js';
import type { FileIndex } from '../target.js';
import type { ManifestRange, RangeWriter } from '../reuse/manifest-ranges.js';
import { bytesOf, manifestLine } from '../../release/manifest.js';
import type { PlannedFile } from '../plan/plan.js';
import type { Placed } from './place.js';
import { formUrl, planOf } from '../plan/plan.js';
import { parsePrevious } from '../reuse/previous.js';
import type { RulePlanner } from '../rules/rules.js';
import type { SegmentSummary } from '../rules/spool-segments.js';
import type { LineWriter } from '../../util/lines.js';
import type { BuildScope } from '../plan/scope.js';
import { ChangedTags } from './changed-tags.js';

const MAX_REPORTED_FAILURES = 20;

export class ReleaseRecord {
  readonly counts = { rendered: 0, files: 0, bytes: 0, added: 0, changed: 0, unchanged: 0, failed: 0 };
  readonly failures: string[] = [];
  /** The cache tags of the answers whose bytes this build changed (changed-tags.ts). */
  readonly changedTags = new ChangedTags();

  constructor(
    private readonly manifest: LineWriter,
    private readonly ranges: RangeWriter,
    private readonly rules: RulePlanner,
    private readonly index: FileIndex | null,
    private readonly opts: Pick<BuildOptions, 'onFile'>,
    private readonly scope: BuildScope,
  ) {}

  /** Whether a match's record changed since the published build (its carried candidates move day). */
  private readonly matchChanged = (league: string, id: string) =>
    this.scope.kind === 'changes' && this.scope.matches.get(league)?.has(id) === true;

  fail(message: string): void {
    this.counts.failed++;
    if (this.failures.length < MAX_REPORTED_FAILURES) this.failures.push(message);
    this.opts.onFile?.(true);
  }

  /** A file this build planned and rendered (placed new, or linked when its bytes did not change). */
  rendered(file: PlannedFile, r: Answer & { placed: Placed; bytesChanged?: boolean }, segment: string): void {
    this.counts.files++;
    this.counts.bytes += r.bytes;
    const { status, etag, cacheControl, contentType, bytes } = r;
    const { file: name, request, aliases, keys } = file;
    // One literal, no spreads: spreading costs a full build microseconds per file.
    const entry = {
      file: name,
      request: formUrl(request),
      aliases: aliases.map(formUrl),
      keys,
      status,
      etag,
      cacheControl,
      contentType,
      bytes,
    };
    this.ranges.file(segment, r.bytes);
    this.manifest.write(manifestLine(entry));
    this.rules.add(file, r, segment);
    this.index?.add(file);
    this.counts[r.placed]++;
    if (r.bytesChanged ?? r.placed !== 'unchanged') this.changedTags.placed(file);
    this.opts.onFile?.(false);
  }

  /** A file carried over from the published release without being planned. */
  carried(head: CarriedFile): void {
    const { line } = head;
    const bytes = bytesOf(line);
    this.counts.files++;
    this.counts.bytes += bytes;
    this.ranges.file(head.segment, bytes);
    // A carried-over file's line is the published one, as it is: same code, same request, same answer.
    this.manifest.write(`${line}\n`);
    this.carryRules(head);
    this.counts.unchanged++;
    this.opts.onFile?.(false);
  }

  private carryRules(head: CarriedFile): void {
    const { line, segment, spooled } = head;
    const rulesCarried = spooled !== null && this.rules.carry(head.file, spooled, this.matchChanged, line, segment);
    // Parsed only when needed: the candidates cannot be carried, or the target's index wants the file's keys.
    if (!rulesCarried || this.index) {
      const entry = parsePrevious(line);
      const file = planOf(head.item, entry.keys);
      if (!rulesCarried) this.rules.add(file, entry, segment);
      this.index?.add(file);
    }
  }

  /**
   * A segment carried over whole: its published manifest lines as they are (`lines`, the range's
   * bytes) and its spool segment linked from `spoolDir`.
   */
  segment(range: ManifestRange, lines: Buffer, spoolDir: string, summary: SegmentSummary): void {
    const { files, bytes } = range;
    this.ranges.copy(range, lines);
    this.rules.link(spoolDir, summary, lines);
    this.counts.files += files;
    this.counts.bytes += bytes;
    this.counts.unchanged += files;
    for (let n = 0; n < files; n++) this.opts.onFile?.(false);
  }
}
