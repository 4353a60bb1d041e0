/**
 * Public reads kept per process (`publicRead` in the contract's meta: catalogue, locations, pages,
 * listing pages and search without a session): the version of a marketplace's public data this
 * process knows is an object, and the /v1 dispatcher keeps each answer (body and ETag) with that
 * object under its URL (@hm/rest `keepAnswerFor`), so a repeated read — and its 304 — is answered
 * without the procedure. The object is replaced as soon as a change to that marketplace commits: the
 * `…_read_cache_notify` triggers notify `hm_reads_changed` (its listings, photos, terms, categories,
 * sites, rates, pages…) and the key cache's `hm_key_changed` (its settings, its keys), heard by the
 * key cache's listener (key-change-listener.ts). A rolled-back change notifies nothing. While that
 * listener is not connected nothing is kept (a change could go unheard), and when it connects again
 * everything goes.
 *
 * One object per marketplace, key kind and day: an answer may differ by key kind, and the day picks
 * the exchange rates of `currency` answers. Language and currency are in the URL.
 */
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** the read cache's count of changes heard when the request arrived (before its key was resolved) */
    readsSeen?: number;
  }
}

export interface ReadCache {
  /**
   * What an answer of this marketplace, key kind and day is kept with; `undefined`: keep nothing —
   * the cache is not listening, or a change to the marketplace was heard after the request arrived
   * (its key, and so the marketplace settings it reads with, may have been resolved before it).
   */
  ownerFor(marketplaceId: string, variant: string, seen: number): object | undefined;
  /** a change heard (`undefined`: anything may have changed) */
  changed(marketplaceId: string | undefined): void;
  /** how many changes were heard so far: recorded as each request arrives (`recordArrival`) */
  heard(): number;
}

/** Marketplaces whose answers one process keeps at once; past this, the one kept longest goes. */
export const READ_CACHE_MARKETPLACES = 256;
/** Variants (key kind × day) per marketplace; more means a new day: the old ones go. */
const VARIANTS = 4;

interface Entry {
  /** `heard` when its last change was heard */
  changedAt: number;
  variants: Map<string, object>;
}

export function readCache(listening: () => boolean): ReadCache {
  const entries = new Map<string, Entry>();
  let heard = 0;
  /** changes heard up to here may be unknown per marketplace (everything dropped, or an entry evicted) */
  let clearedAt = 0;
  const put = (id: string, entry: Entry) => {
    entries.delete(id);
    if (entries.size >= READ_CACHE_MARKETPLACES) {
      const [oldId, old] = entries.entries().next().value!;
      entries.delete(oldId);
      clearedAt = Math.max(clearedAt, old.changedAt);
    }
    entries.set(id, entry);
    return entry;
  };
  return {
    ownerFor(marketplaceId, variant, seen) {
      if (!listening() || clearedAt > seen) return undefined;
      const entry = entries.get(marketplaceId) ?? put(marketplaceId, { changedAt: 0, variants: new Map() });
      if (entry.changedAt > seen) return undefined;
      let owner = entry.variants.get(variant);
      if (!owner) {
        if (entry.variants.size >= VARIANTS) entry.variants.clear();
        entry.variants.set(variant, (owner = {}));
      }
      return owner;
    },
    changed(marketplaceId) {
      heard++;
      if (marketplaceId !== undefined) return void put(marketplaceId, { changedAt: heard, variants: new Map() });
      clearedAt = heard;
      entries.clear();
    },
    heard: () => heard,
  };
}

/** Records, as each request of the scope arrives (add it before the key is resolved), how many changes had been heard. */
export function recordArrival(scope: FastifyInstance, cache: ReadCache) {
  scope.addHook('onRequest', async (req) => {
    req.readsSeen = cache.heard();
  });
}
