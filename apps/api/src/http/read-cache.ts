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
 *
 * Finer: a change to one listing alone — its favourite count (the …_listing_reads_notify trigger's
 * payload names the listing) — keeps the object. The answers that show that listing are kept under
 * its id (`keysFor`: a listing page, a search page with it among its items), those whose order
 * depends on every listing's favourite count (`sort=popular`) under EVERY_LISTING, and the change
 * drops only those (`forget`). As for the object, an answer computed by a request that arrived
 * before such a change to a listing it shows was heard is not kept (`keysFor` says `false`).
 *
 * Beside the answers, exact search counts (`total`) per marketplace and filters (`countsFor`,
 * @hm/domain's KeptCounts): shared by every page, sort and language of the same filters, kept
 * until a change to the marketplace is heard (a favourite count counts nothing), and neither used
 * nor kept by a request that arrived before the last one was heard.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { KeptCounts } from '@hm/domain/core';

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
  /**
   * The keys an answer kept with `ownerFor`'s object goes under, once computed by a request that
   * arrived at `seen`, from what it `shows`; `false`: keep it not (a change to what it shows was
   * heard after the request arrived).
   */
  keysFor(marketplaceId: string, seen: number, shows: Shows): readonly string[] | false;
  /** a change heard (`undefined`: anything may have changed; `listingId`: only that listing's favourite count) */
  changed(marketplaceId: string | undefined, listingId?: string): void;
  /** the exact counts of the marketplace a request that arrived at `seen` may use and keep; `undefined`: none (not listening) */
  countsFor(marketplaceId: string, seen: number): KeptCounts | undefined;
  /** how many changes were heard so far: recorded as each request arrives (`recordArrival`) */
  heard(): number;
}

/** What a public answer shows of the marketplace's listings. */
export interface Shows {
  /** the listings it shows (a change to one of them alone drops it) */
  listings: readonly string[];
  /** its choice or order depends on every listing's favourite count (`sort=popular`): any such change drops it */
  byFavourites: boolean;
}

/** The key of the answers a change to any one listing drops. */
export const EVERY_LISTING = '*';
/** Listings whose last change is known by itself, per marketplace; past this, the record starts again (older requests then keep no listing). */
export const LISTINGS_KNOWN = 4096;

/** Exact counts kept per marketplace; past this, they start again. */
export const COUNTS_KEPT = 10_000;

/** Marketplaces whose answers one process keeps at once; past this, the one kept longest goes. */
export const READ_CACHE_MARKETPLACES = 256;
/** Variants (key kind × day) per marketplace; more means a new day: the old ones go. */
const VARIANTS = 4;

interface Entry {
  /** `heard` when its last change (to anything but one listing alone) was heard */
  changedAt: number;
  variants: Map<string, object>;
  /** listing id → `heard` when a change to that listing alone was last heard */
  listings: Map<string, number>;
  /** `heard` when a change to any one listing alone was last heard */
  anyListingAt: number;
  /** such changes heard up to here are no longer known by listing (`listings` reached LISTINGS_KNOWN) */
  listingsClearedAt: number;
  /** exact counts by filters (`countsFor`) */
  counts: Map<string, number>;
}

const entryAt = (heard: number): Entry => ({ changedAt: heard, variants: new Map(), listings: new Map(), anyListingAt: 0, listingsClearedAt: 0, counts: new Map() });

/** `forget`: drops the answers kept with an object under a key (the /v1 dispatcher's). */
export function readCache(listening: () => boolean, forget: (owner: object, key: string) => void = () => {}): ReadCache {
  const entries = new Map<string, Entry>();
  let heard = 0;
  /** changes heard up to here may be unknown per marketplace (everything dropped, or an entry evicted) */
  let clearedAt = 0;
  const put = (id: string, entry: Entry) => {
    entries.delete(id);
    if (entries.size >= READ_CACHE_MARKETPLACES) {
      const [oldId, old] = entries.entries().next().value!;
      entries.delete(oldId);
      clearedAt = Math.max(clearedAt, old.changedAt, old.anyListingAt);
    }
    entries.set(id, entry);
    return entry;
  };
  return {
    ownerFor(marketplaceId, variant, seen) {
      if (!listening() || clearedAt > seen) return undefined;
      const entry = entries.get(marketplaceId) ?? put(marketplaceId, entryAt(0));
      if (entry.changedAt > seen) return undefined;
      let owner = entry.variants.get(variant);
      if (!owner) {
        if (entry.variants.size >= VARIANTS) entry.variants.clear();
        entry.variants.set(variant, (owner = {}));
      }
      return owner;
    },
    keysFor(marketplaceId, seen, shows) {
      const entry = entries.get(marketplaceId);
      if (!entry || entry.changedAt > seen || clearedAt > seen) return false;
      if (shows.byFavourites) return entry.anyListingAt > seen ? false : [EVERY_LISTING];
      if (shows.listings.length === 0) return [];
      if (entry.listingsClearedAt > seen) return false;
      for (const id of shows.listings) if ((entry.listings.get(id) ?? 0) > seen) return false;
      return shows.listings;
    },
    changed(marketplaceId, listingId) {
      heard++;
      if (marketplaceId === undefined) {
        clearedAt = heard;
        return entries.clear();
      }
      const entry = entries.get(marketplaceId);
      // (no entry: nothing kept; a request that arrived before this and asks for an object later must not keep)
      if (listingId === undefined || !entry) return void put(marketplaceId, entryAt(heard));
      entry.anyListingAt = heard;
      if (entry.listings.size >= LISTINGS_KNOWN) {
        entry.listings.clear();
        entry.listingsClearedAt = heard;
      }
      entry.listings.set(listingId, heard);
      for (const owner of entry.variants.values()) {
        forget(owner, listingId);
        forget(owner, EVERY_LISTING);
      }
    },
    countsFor(marketplaceId, seen) {
      if (!listening()) return undefined;
      // the entry at the time of use: one replaced since the request arrived is not its business
      const current = (create: boolean) => {
        if (!listening() || clearedAt > seen) return undefined;
        const entry = entries.get(marketplaceId) ?? (create ? put(marketplaceId, entryAt(0)) : undefined);
        return entry && entry.changedAt <= seen ? entry : undefined;
      };
      return {
        get: (key) => current(false)?.counts.get(key),
        set(key, count) {
          const entry = current(true);
          if (!entry) return;
          if (entry.counts.size >= COUNTS_KEPT) entry.counts.clear();
          entry.counts.set(key, count);
        },
      };
    },
    heard: () => heard,
  };
}

/** A /v1 request's kept counts (`countsFor` of its key's marketplace), once its key is resolved. */
export function keptCountsOf(cache: ReadCache) {
  return (req: FastifyRequest): KeptCounts | undefined => {
    const auth = req.apiAuth;
    if (auth === undefined || auth instanceof Error || req.readsSeen === undefined) return undefined;
    return cache.countsFor(auth.marketplace.id, req.readsSeen);
  };
}

/** Records, as each request of the scope arrives (add it before the key is resolved), how many changes had been heard. */
export function recordArrival(scope: FastifyInstance, cache: ReadCache) {
  scope.addHook('onRequest', async (req) => {
    req.readsSeen = cache.heard();
  });
}
