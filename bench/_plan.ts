import { ROUTES } from '../src/api/routes.js';
import { buildPlan } from '../src/publish/plan.js';
import { StoreReader } from '../src/store/read/reader.js';
const store = StoreReader.open(process.argv[2]!);
store.begin();
for (let rep = 0; rep < 3; rep++) {
  let t = performance.now();
  let n = 0;
  for (const route of ROUTES) {
    if (!route.prerender) continue;
    for (const req of route.prerender(store, route)) {
      n++;
      route.reads?.(req);
    }
  }
  const en = performance.now() - t;
  t = performance.now();
  let m = 0;
  for (const f of buildPlan(store)) m++;
  console.log('enumerate', n, en.toFixed(0), 'ms; plan', m, (performance.now() - t).toFixed(0), 'ms');
}
