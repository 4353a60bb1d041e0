/**
 * The bare side of bench/search.ts: a plain Fastify app with one route, `GET /v1/listings`, doing the
 * database work the API does for a search, through `pg` without the stack (no MikroORM, tRPC,
 * trpc-to-openapi, zod, hooks), and answering the same JSON.
 *
 * Per request, as the API: the key's marketplace (two lookups, reused for up to a second like the API's
 * key cache), then one transaction as `hm_app` with the marketplace set (row-level security), in which
 * the domain's own search command (`searchListings`, so the very statements the API sends) runs over
 * a small stand-in for the entity manager that sends its SQL to the transaction's client, then the
 * listing rows, their images, terms and sites, mapped by the domain's own `toShopListing`.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { CatalogTermSchema, ListingImageSchema, ListingSchema, SiteSchema, type CatalogTerm, type Listing, type ListingImage, type Site } from '@hm/db/entities';
import type { CommandContext } from '@hm/domain/core';
import { searchListings } from '../packages/domain/src/listing-search/commands/search-listings.js';
import { columnsOf } from '../packages/domain/src/core/entity-rows.js';
import { toShopListing } from '../packages/domain/src/listing-search/listing-search.mapper.js';
import { ZSearchInput } from '../packages/domain/src/listing-search/listing-search.schema.js';
import { RateBook } from '../packages/domain/src/rates/rate-book.js';
import { asEntity as entity, bareKeyAuth } from './bare-auth.js';

/** The API's pool size (DATABASE_POOL_MAX default 10). */
const POOL_MAX = 10;

/** The columns of an entity, as the API's shop reads select them (not `*`: no search columns). */
const columns = columnsOf;

export async function startBareSearch(opts: { databaseUrl: string; publicUrl: string; mode: 'test' | 'live' }) {
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: POOL_MAX });
  pool.on('error', () => {});
  // int8 (bigint) as a number, as the entities have it (prices in minor units fit)
  const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) };
  const app = Fastify({ logger: false });

  const authenticate = bareKeyAuth(pool, opts.mode);

  app.get('/v1/listings', async (req, reply) => {
    const m = await authenticate(req.headers.authorization);
    if (!m) return reply.code(401).send({ type: 'about:blank', title: 'Unauthorized', status: 401, code: 'invalid_api_key' });
    const input = ZSearchInput.parse(req.query);
    const client = await pool.connect();
    try {
      const q = async (text: string, values: unknown[]) => (await client.query({ text, values, types })).rows as Record<string, unknown>[];
      await client.query(`begin; select set_config('role', 'hm_app', true), set_config('hm.marketplace_id', '${m.id.replace(/[^0-9a-f-]/g, '')}', true)`);
      // the entity manager as the search command uses it: its tenant, raw statements, catalogue terms by id
      const em = {
        getFilterParams: () => ({ marketplaceId: m.id }),
        getSessionContext: () => ({ variables: { role: 'hm_app', 'hm.marketplace_id': m.id } }),
        execute: (sql: string, params: unknown[]) => {
          let n = 0;
          return q(
            sql.replace(/\?/g, () => `$${++n}`),
            params,
          );
        },
        find: async (_entity: unknown, where: { id: { $in: string[] } }) =>
          (await q(`select ${columns(CatalogTermSchema)} from catalog_terms where marketplace_id = $1 and id = any($2::uuid[])`, [m.id, where.id.$in])).map((r) => entity<CatalogTerm>(r)),
      };
      const rates = new RateBook([], m.currencies[0] ?? '');
      const ctx = { em, marketplace: m } as unknown as CommandContext;
      const { ids, total, totalIsEstimate, nextCursor, didYouMean, facets, facetsAreEstimates } = await searchListings(ctx, input, rates);
      const rows = ids.length ? await q(`select ${columns(ListingSchema)} from listings where marketplace_id = $1 and id = any($2::uuid[])`, [m.id, ids]) : [];
      const byId = new Map(rows.map((r) => [r.id as string, entity<Listing>(r)]));
      const listings = ids.map((id) => byId.get(id)).filter((l): l is Listing => !!l);
      const termIds = [...new Set(listings.flatMap((l) => Object.values(l.terms)))];
      const siteIds = [...new Set(listings.map((l) => l.siteId).filter((s): s is string => !!s))];
      const [images, terms, sites] = await Promise.all([
        ids.length ? q(`select ${columns(ListingImageSchema)} from listing_images where marketplace_id = $1 and listing_id = any($2::uuid[]) order by position asc, created_at asc`, [m.id, ids]) : [],
        termIds.length ? q(`select ${columns(CatalogTermSchema)} from catalog_terms where marketplace_id = $1 and id = any($2::uuid[])`, [m.id, termIds]) : [],
        siteIds.length ? q(`select ${columns(SiteSchema)} from sites where marketplace_id = $1 and id = any($2::uuid[])`, [m.id, siteIds]) : [],
      ]);
      await client.query('commit');
      const byListing = new Map<string, ListingImage[]>();
      for (const img of images.map((r) => entity<ListingImage>(r))) byListing.set(img.listingId, [...(byListing.get(img.listingId) ?? []), img]);
      const rel = { images: byListing, terms: new Map(terms.map((r) => [r.id as string, entity<CatalogTerm>(r)])), sites: new Map(sites.map((r) => [r.id as string, entity<Site>(r)])) };
      const items = listings.map((l) => toShopListing(l, rel, { marketplace: m, publicUrl: opts.publicUrl, rates, currency: input.currency }));
      return {
        items,
        total,
        ...(totalIsEstimate ? { total_is_estimate: true } : {}),
        ...(nextCursor ? { next_cursor: nextCursor } : {}),
        ...(didYouMean ? { did_you_mean: didYouMean } : {}),
        ...(facets ? { facets } : {}),
        ...(facetsAreEstimates ? { facets_are_estimates: true } : {}),
      };
    } catch (e) {
      await client.query('rollback').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { port, close: async () => void (await app.close(), await pool.end()) };
}
