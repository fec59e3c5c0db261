/**
 * What a publish must purge from shared caches (`--purge`): the own cache tag (api/cache-tags.ts) of
 * every answer whose bytes the build changed — files added, files whose bytes differ from the
 * published release's, files the published release had and this one does not — with their aliases'
 * (one file answers `/events/ID` and `/summary?event=ID`). Only the own tags: purging everything a
 * changed answer shows would purge its league, and so the whole league on every publish of a live
 * matchday. Tags repeat across files (every plays page of a match has the match's): held once each.
 */
import { ownTag } from '../../api/cache-tags.js';
import { matchRoute } from '../../api/route.js';
import { ROUTES } from '../../app/routes.js';
import { NAME_JOIN, requestPathOf } from '../../release/file-name.js';
import type { PlannedFile, RequestForm } from '../plan/plan.js';

export class ChangedTags {
  private readonly tags = new Set<string>();

  /** A file this build wrote with new bytes: its request's and its aliases' own tags. */
  placed(file: PlannedFile): void {
    this.addForm(file.request);
    for (const alias of file.aliases) this.addForm(alias);
  }

  /** A file of the published release this build no longer has, by its release-relative path. */
  removed(file: string): void {
    const req = requestOfFile(file);
    if (req) this.add(ownTag(req.route, req.params, req.query));
  }

  /** In the order they were first met. */
  get list(): string[] {
    return [...this.tags];
  }

  private addForm(form: RequestForm): void {
    this.add(ownTag(form.route, form.params, Object.fromEntries(form.query)));
  }

  private add(tag: string | null): void {
    if (tag !== null) this.tags.add(tag);
  }
}

/**
 * The route and canonical values a release-relative file was named from (release/file-name.ts: the
 * request path, then the query as `k1-v1,k2-v2` or `index`), or null for a file no route names.
 */
export function requestOfFile(
  file: string,
): { route: (typeof ROUTES)[number]; params: Record<string, string>; query: Record<string, string> } | null {
  const own = ROUTES.find((r) => r.staticFile === file);
  if (own) return { route: own, params: {}, query: {} };
  const path = requestPathOf(file);
  if (path === null || !file.endsWith('.json')) return null;
  const matched = matchRoute(ROUTES, path);
  if (!matched) return null;
  const name = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf(NAME_JOIN)) + 1, -'.json'.length);
  const query: Record<string, string> = {};
  if (name !== 'index') {
    for (const pair of name.split(',')) {
      // Keys are letters and digits (plan.ts), so the first `-` ends one.
      const dash = pair.indexOf('-');
      if (dash > 0) query[pair.slice(0, dash)] = pair.slice(dash + 1);
    }
  }
  return { route: matched.route, params: matched.params, query };
}
