/**
 * What a planned provider's run asked, in one line (the sync's summary, a live cycle's line): the
 * hot leagues, the requests and bytes by kind, and a block when there is one.
 */
import type { ProviderNote } from './provider.js';
import { kbOrMb } from '../util/thousands.js';

const hhmm = (iso: string) => `${iso.slice(11, 16)}Z`;

export function upstreamLine(n: ProviderNote, provider = 'espn'): string {
  if (n.blockedUntil && !Object.keys(n.asked).length)
    return `${provider}: BLOCKED (HTTP 403) until ${hhmm(n.blockedUntil)}: nothing asked, serving what is stored`;
  const hot = n.hot.length ? `hot ${n.hot.join(', ')}` : `none hot${n.nextHotAt ? ` (next ${hhmm(n.nextHotAt)})` : ''}`;
  const kinds = Object.entries(n.asked);
  const requests = kinds.reduce((t, [, a]) => t + a.requests, 0);
  const bytes = kinds.reduce((t, [, a]) => t + a.bytes, 0);
  const unchanged = kinds.reduce((t, [, a]) => t + a.notModified, 0);
  const parts = kinds.map(([kind, a]) => `${kind} ${a.requests} · ${kbOrMb(a.bytes)}`).join(', ');
  const asked = requests
    ? `asked ${requests} (${kbOrMb(bytes)}): ${parts}${unchanged ? `; ${unchanged} unchanged (304)` : ''}`
    : 'asked nothing';
  const blocked = n.blockedUntil ? `; BLOCKED (HTTP 403) until ${hhmm(n.blockedUntil)}, serving what is stored` : '';
  return `${provider}: ${hot}; ${asked}${blocked}`;
}
