/** The API contract over real HTTP: the same suite against `createApiServer` on an ephemeral port. */
import { describe } from 'vitest';
import { contractSuite } from '../api/contract-suite.js';
import { clock } from '../api/helpers/api-store.js';
import { httpTarget } from '../api/helpers/targets.js';

describe('API contract: HTTP server', () => {
  contractSuite(httpTarget(clock));
});
