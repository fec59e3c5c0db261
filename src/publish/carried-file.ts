/**
 * A file a build carries over from the published release (write-release.ts): what it keeps of the
 * published file's manifest line and rule candidates while it waits for its turn in plan order.
 */
import type { ManifestEntry } from '../release/manifest.js';
import type { PlanGroup, PlanItem } from './plan.js';
import type { RecycledFile } from './recycle.js';

export type Answer = Omit<ManifestEntry, 'file' | 'request' | 'aliases' | 'keys'>;
/** A group's files as the published manifest lists them: [file, line]. */
export type Run = Array<[string, string]>;

export type CarriedFile = {
  file: string;
  /** The file's plan item; null for a file carried over with its group (`group`), which plans it again if need be. */
  item: PlanItem | null;
  group: PlanGroup | null;
  line: string;
  /** Its candidates in the published spool (null: none found there, or `linking`). */
  spooled: string[] | null;
  linked: true | Promise<boolean>;
  rec: RecycledFile | null;
  /** Its spool segment, and whether that is linked whole from the published spool. */
  segment: string;
  linking: boolean;
};

/** A carried file's plan item: its own, or found among its group's (only when the carry needs it). */
export function itemOfCarried(head: { file: string; item: PlanItem | null; group: PlanGroup | null }): PlanItem {
  if (head.item) return head.item;
  for (const item of head.group?.items() ?? []) if (item.file === head.file) return item;
  // The group is unchanged since the published build, whose manifest listed this file among its files.
  throw new Error(`${head.file}: not a file of its group`);
}
