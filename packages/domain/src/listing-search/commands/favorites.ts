import { ListingSchema } from '@hm/db/entities';
import type { UserCommandContext } from '../../core/context.js';
import { NotFoundError } from '../../core/errors.js';
import { keyset } from '../../core/keyset.js';
import { bumpFavoriteCount, countFavorites, deleteFavorite, favoritesPage, insertFavorite, isOnSale } from '../favorites.queries.js';

/**
 * PUT /v1/me/favorites/{id}: only listings on sale; saving twice is fine. The count moves only
 * when a row was really added (primary key on user + listing), so it stays exact under races.
 */
export async function saveFavorite(ctx: UserCommandContext, listingId: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    if (!(await isOnSale(em, listingId))) throw new NotFoundError('This listing');
    if (await insertFavorite(em, ctx.user.id, listingId, ctx.clock.now())) await bumpFavoriteCount(em, listingId, 1);
  });
}

/** DELETE /v1/me/favorites/{id}: 204 whether or not it was saved (and for listings no longer on sale). */
export async function removeFavorite(ctx: UserCommandContext, listingId: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    if (await deleteFavorite(em, ctx.user.id, listingId)) await bumpFavoriteCount(em, listingId, -1);
  });
}

/** GET /v1/me/favorites: latest saved first, including listings no longer on sale; keyset on (saved at, listing id). */
export async function listFavorites(ctx: UserCommandContext, input: { limit: number; cursor?: string }) {
  const pages = keyset(`favorites:${ctx.marketplace.id}:${ctx.user.id}`, ['timestamptz', 'uuid']);
  const after = pages.after(input.cursor);
  const [rows, total] = await Promise.all([favoritesPage(ctx.em, ctx.user.id, input.limit + 1, after), countFavorites(ctx.em, ctx.user.id)]);
  const { items: page, nextCursor } = pages.page(rows, input.limit, (r) => [r.created_at, r.listing_id]);
  const listings = await ctx.em.find(ListingSchema, { id: { $in: page.map((r) => r.listing_id) } });
  const byId = new Map(listings.map((l) => [l.id, l]));
  return { listings: page.map((r) => byId.get(r.listing_id)!).filter(Boolean), total, ...(nextCursor ? { nextCursor } : {}) };
}
