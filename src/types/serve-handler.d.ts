/** The part of serve-handler's API (6.x, a CommonJS module without bundled types) this project uses. */
declare module 'serve-handler' {
  import type { ReadStream, Stats } from 'node:fs';
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Header {
    key: string;
    value: string | null;
  }

  export interface Config {
    public?: string;
    cleanUrls?: boolean | string[];
    directoryListing?: boolean | string[];
    trailingSlash?: boolean;
    symlinks?: boolean;
    etag?: boolean;
    headers?: Array<{ source: string; headers: Header[] }>;
  }

  export interface ErrorSpec {
    statusCode: number;
    code: string;
    message: string;
  }

  export interface Methods {
    lstat?: (path: string, fromDir?: boolean) => Promise<Stats>;
    realpath?: (path: string) => Promise<string>;
    createReadStream?: (path: string, options?: { start?: number; end?: number }) => ReadStream;
    readdir?: (path: string) => Promise<string[]>;
    sendError?: (
      absolutePath: string,
      response: ServerResponse,
      acceptsJSON: boolean,
      current: string,
      handlers: Methods,
      config: Config,
      spec: ErrorSpec,
    ) => void | Promise<void>;
  }

  export default function handler(
    request: IncomingMessage,
    response: ServerResponse,
    config?: Config,
    methods?: Methods,
  ): Promise<void>;
}
