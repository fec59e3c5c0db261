/**
 * A file a build carries over from the published release (write-release.ts): what it takes of the
 * published file's manifest line and rule candidates while it waits for its turn in plan order.
 */
import type { ManifestEntry } from '../../release/manifest.js';
import type { PlanItem } from '../plan/plan.js';
import type { RecycledFile } from './recycle.js';

export type Answer = Omit<ManifestEntry, 'file' | 'request' | 'aliases' | 'keys'>;

export type CarriedFile = {
  file: string;
  item: PlanItem;
  line: string;
  /** Its candidates in the published spool (null: none found there). */
  spooled: string[] | null;
  linked: true | Promise<boolean>;
  rec: RecycledFile | null;
  /** Its spool segment. */
  segment: string;
};
