/** `build` (publish/build.ts) for Netlify, the default target: what `fds live`, the tests and the benches call. */
import { build as buildFor } from '../publish/build.js';
import type { BuildOptions, BuildSummary } from '../publish/build.js';
import { netlifyTarget } from './target.js';
import type { NetlifyOptions, NetlifyReport } from './target.js';

export type NetlifyBuildOptions = Omit<BuildOptions<NetlifyReport>, 'target'> & NetlifyOptions;
export type NetlifyBuildSummary = BuildSummary & NetlifyReport;

export function build(opts: NetlifyBuildOptions): Promise<NetlifyBuildSummary> {
  return buildFor({ ...opts, target: netlifyTarget(opts) });
}
