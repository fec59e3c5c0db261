import type { Target, TargetResponse } from '../helpers/targets.js';

/** One request and what the contract says about its answer. */
export interface ContractCase {
  /** Reads as the behaviour it pins. */
  name: string;
  method?: string;
  url: string;
  headers?: Record<string, string>;
  status: number;
  /** The exact `{error}` text of a 4xx/5xx. */
  error?: string;
  /** Exact Cache-Control. */
  cache?: string;
  // Bodies are JSON of many shapes; the checks navigate them freely.
  check?: (body: any, res: TargetResponse) => void;
}

/** A behaviour that needs several requests (conditional GETs, equal bodies across forms). */
export interface ContractFlow {
  name: string;
  run: (target: Target) => Promise<void>;
}

export const json = (res: TargetResponse): unknown => JSON.parse(res.body.toString('utf8'));
