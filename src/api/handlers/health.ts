/** /health and /api/health: healthy means the store opened and answers a query now. */
import type { HandlerResult, StandaloneDeps } from '../route.js';
import type { DatabaseState } from '../vocab.js';
import { API_VERSION } from '../vocab.js';

export function health(deps: StandaloneDeps): HandlerResult {
  let database: DatabaseState = 'connected';
  if (!deps.store) database = deps.storeProblem;
  else {
    try {
      deps.store.check();
    } catch {
      database = 'error';
    }
  }
  const healthy = database === 'connected';
  return {
    status: healthy ? 200 : 503,
    body: {
      status: healthy ? 'healthy' : 'unhealthy',
      timestamp: deps.clock().toISOString(),
      uptime: deps.uptime(),
      version: API_VERSION,
      database: { status: database, name: deps.storeName },
    },
  };
}
