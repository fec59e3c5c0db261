/** The API contract against the render core, in process. */
import { describe } from 'vitest';
import { contractSuite } from './contract-suite.js';
import { clock, openReader } from './helpers/api-store.js';
import { inProcessTarget } from './helpers/targets.js';

describe('API contract: render core', () => {
  contractSuite(inProcessTarget(openReader, clock));
});
