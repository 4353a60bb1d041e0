import { createHash } from 'node:crypto';
import type { MikroORM } from '@hm/db/orm';
import type { ApiMode, AuthenticatedKey, OperatorSessionLookup, OperatorSessionRows } from '@hm/domain/core';
import type { DomainError } from '@hm/contract/problems';
import { authenticateApiKey } from '@hm/domain/api-keys';
import { findOperatorSessionRows } from '@hm/domain/operators';

/** The longest an answer may be reused: a revoked key (or a changed marketplace) shows within this in every process. */
export const API_KEY_CACHE_MAX_MS = 1000;
/** Keys remembered per process; past this the oldest entry goes (a storefront uses one or two). */
export const API_KEY_CACHE_ENTRIES = 10_000;

export type Authenticate = (header: string | undefined) => Promise<AuthenticatedKey | DomainError>;

interface Entry<T> {
  /** when the database was asked (monotonic ms): the answer is reused until `asked + ttl` */
  asked: number;
  answer: Promise<T>;
  /** the answer's marketplace, once it is known */
  marketplaceId?: string;
}

/** Where the cache hears of changes (key-change-listener.ts): it calls the handler with a marketplace id, or `undefined` for "anything". */
export type KeyChanges = (handler: (marketplaceId: string | undefined, what?: 'key' | 'reads') => void) => void;

export interface Remembered<T> {
  /** the answer remembered under `id`, or `ask`'s (then remembered) */
  get(id: string, ask: () => Promise<T>): Promise<T>;
  /** drops a marketplace's answers (and every lookup still running), or everything (`undefined`) */
  forget(marketplaceId: string | undefined): void;
  /** the marketplace of a remembered answer, if any */
  marketplaceOf(id: string): string | undefined;
}

/**
 * Answers remembered per process for `ttlMs` (≤ 1 s) under `id`. Only answers that name a
 * marketplace (`marketplaceOf`) are kept: an unknown or refused one asks the database each time, and
 * random ids cannot fill the cache; concurrent first requests for one id share one lookup. The time
 * counts from when the database was asked, so no answer older than `ttlMs` is used: a change made by
 * any process — the console, another API process — is seen by every process within `ttlMs`; with
 * `changes` (a LISTEN on the change triggers, key-change-listener.ts) as soon as the notification of
 * its commit arrives.
 */
export function remembered<T>(ttlMs: number, marketplaceOf: (answer: T) => string | undefined, now: () => number = () => performance.now(), changes?: KeyChanges): Remembered<T> {
  if (ttlMs > API_KEY_CACHE_MAX_MS) throw new Error(`The API key cache keeps answers at most ${API_KEY_CACHE_MAX_MS} ms.`);
  const entries = new Map<string, Entry<T>>();
  // A change committed elsewhere: that marketplace's answers go, and every lookup still running
  // (it may have read the rows before the change committed); `undefined`: everything goes.
  const forget = (marketplaceId: string | undefined) => {
    if (marketplaceId === undefined) return entries.clear();
    for (const [id, entry] of entries) if (entry.marketplaceId === undefined || entry.marketplaceId === marketplaceId) entries.delete(id);
  };
  // a change to public data only (`reads`) leaves keys, settings and sessions as they were
  changes?.((marketplaceId, what) => {
    if (what !== 'reads') forget(marketplaceId);
  });
  return {
    forget,
    marketplaceOf: (id) => entries.get(id)?.marketplaceId,
    get(id, ask) {
      if (ttlMs <= 0) return ask();
      const at = now();
      const hit = entries.get(id);
      if (hit && at - hit.asked < ttlMs) return hit.answer;
      if (hit) entries.delete(id);
      else if (entries.size >= API_KEY_CACHE_ENTRIES) entries.delete(entries.keys().next().value!);
      const entry: Entry<T> = { asked: at, answer: ask() };
      entries.set(id, entry);
      const drop = () => {
        if (entries.get(id) === entry) entries.delete(id);
      };
      entry.answer.then((answer) => {
        const marketplaceId = marketplaceOf(answer);
        if (marketplaceId === undefined) drop();
        else entry.marketplaceId = marketplaceId;
      }, drop);
      return entry.answer;
    },
  };
}

/**
 * `Authorization` header → key and marketplace, remembered per process for `ttlMs` (≤ 1 s) under the
 * sha256 of the header (`remembered`), so a storefront's requests skip the two lookups. Only accepted
 * keys are kept. `ttlMs` 0: every request asks the database.
 */
export function apiKeyAuthenticator(orm: MikroORM, mode: ApiMode, ttlMs: number, now: () => number = () => performance.now(), changes?: KeyChanges): Authenticate {
  if (ttlMs <= 0) return (header) => authenticateApiKey(orm, header, mode);
  const keys = remembered<AuthenticatedKey | DomainError>(ttlMs, (answer) => ('apiKeyId' in answer ? answer.marketplace.id : undefined), now, changes);
  return (header) => (header === undefined ? authenticateApiKey(orm, header, mode) : keys.get(createHash('sha256').update(header).digest('base64'), () => authenticateApiKey(orm, header, mode)));
}

/**
 * Operator session token hash → the session's, operator's and marketplace's rows (one statement,
 * findOperatorSessionRows), remembered like API keys. The check itself (ended, expired, the idle
 * limit's move) runs on every request over the rows (authenticateOperator); what changes them — a
 * sign-out, an operator's role or removal, the marketplace — notifies at commit (the key-change
 * triggers) and is dropped here at once by the process that made it (console.ts).
 */
export function operatorSessions(orm: MikroORM, ttlMs: number, changes?: KeyChanges): Remembered<OperatorSessionRows | undefined> & { lookup: OperatorSessionLookup } {
  const sessions = remembered<OperatorSessionRows | undefined>(ttlMs, (rows) => rows?.marketplace.id, undefined, changes);
  return { ...sessions, lookup: (hash) => sessions.get(hash, () => findOperatorSessionRows(orm, hash)) };
}
