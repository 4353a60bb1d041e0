import { createHash } from 'node:crypto';
import type { MikroORM } from '@hm/db/orm';
import type { ApiMode, AuthenticatedKey } from '@hm/domain/core';
import type { DomainError } from '@hm/contract/problems';
import { authenticateApiKey } from '@hm/domain/api-keys';

/** The longest an answer may be reused: a revoked key (or a changed marketplace) shows within this in every process. */
export const API_KEY_CACHE_MAX_MS = 1000;
/** Keys remembered per process; past this the oldest entry goes (a storefront uses one or two). */
export const API_KEY_CACHE_ENTRIES = 10_000;

export type Authenticate = (header: string | undefined) => Promise<AuthenticatedKey | DomainError>;

interface Entry {
  /** when the database was asked (monotonic ms): the answer is reused until `asked + ttl` */
  asked: number;
  answer: Promise<AuthenticatedKey | DomainError>;
  /** the answer's marketplace, once it is known */
  marketplaceId?: string;
}

/** Where the cache hears of changes (key-change-listener.ts): it calls the handler with a marketplace id, or `undefined` for "anything". */
export type KeyChanges = (handler: (marketplaceId: string | undefined, what?: 'key' | 'reads') => void) => void;

/**
 * `Authorization` header → key and marketplace, remembered per process for `ttlMs` (≤ 1 s) under the
 * sha256 of the header, so a storefront's requests skip the two lookups. Only accepted keys are kept
 * (an unknown or revoked key asks the database each time, and random keys cannot fill the cache);
 * concurrent first requests for one key share one lookup. The time counts from when the database was
 * asked, so no answer older than `ttlMs` is used: a key revoked (or a marketplace changed) by any
 * process — the console, another API process — is refused (seen) by every process within `ttlMs`;
 * with `changes` (a LISTEN on the change triggers, key-change-listener.ts) as soon as the
 * notification of its commit arrives.
 * `ttlMs` 0: every request asks the database.
 */
export function apiKeyAuthenticator(orm: MikroORM, mode: ApiMode, ttlMs: number, now: () => number = () => performance.now(), changes?: KeyChanges): Authenticate {
  if (ttlMs <= 0) return (header) => authenticateApiKey(orm, header, mode);
  if (ttlMs > API_KEY_CACHE_MAX_MS) throw new Error(`The API key cache keeps answers at most ${API_KEY_CACHE_MAX_MS} ms.`);
  const entries = new Map<string, Entry>();
  // A change committed elsewhere: that marketplace's answers go, and every lookup still running
  // (it may have read the rows before the change committed); `undefined`: everything goes.
  // (A change to public data only — `reads` — leaves keys and settings as they were.)
  changes?.((marketplaceId, what) => {
    if (what === 'reads') return;
    if (marketplaceId === undefined) return entries.clear();
    for (const [id, entry] of entries) if (entry.marketplaceId === undefined || entry.marketplaceId === marketplaceId) entries.delete(id);
  });
  return (header) => {
    if (header === undefined) return authenticateApiKey(orm, header, mode);
    const id = createHash('sha256').update(header).digest('base64');
    const at = now();
    const hit = entries.get(id);
    if (hit && at - hit.asked < ttlMs) return hit.answer;
    if (hit) entries.delete(id);
    else if (entries.size >= API_KEY_CACHE_ENTRIES) entries.delete(entries.keys().next().value!);
    const entry: Entry = { asked: at, answer: authenticateApiKey(orm, header, mode) };
    entries.set(id, entry);
    const forget = () => {
      if (entries.get(id) === entry) entries.delete(id);
    };
    entry.answer.then((answer) => ('apiKeyId' in answer ? (entry.marketplaceId = answer.marketplace.id) : forget()), forget);
    return entry.answer;
  };
}
