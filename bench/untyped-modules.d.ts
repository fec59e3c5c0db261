// The parts of two untyped packages the server benchmark uses (neither ships types; no @types installed).

declare module 'serve-handler' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export default function handler(
    req: IncomingMessage,
    res: ServerResponse,
    options?: { public?: string; cleanUrls?: boolean },
  ): Promise<void>;
}

declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    requests?: Array<{ method?: string; path?: string }>;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  export default function autocannon(opts: Options): Promise<Result>;
}
