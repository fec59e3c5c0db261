import type { StoreReader } from '../store/read/reader.js';
import type { Clock } from '../util/time.js';

/** Responses rendered for files must not depend on the time of the build: the clock is the store's. */
export function snapshotClock(store: StoreReader): Clock {
  const at = new Date(store.meta().snapshotAt ?? 0);
  return () => at;
}
