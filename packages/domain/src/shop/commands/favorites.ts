import { ListingSchema } from '@hm/db/entities';
import type { UserCommandContext } from '../../context.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { decodeCursor, encodeCursor } from '../../shared/cursor.js';
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
  const fingerprint = `favorites:${ctx.marketplace.id}:${ctx.user.id}`;
  let after: [string, string] | undefined;
  if (input.cursor) {
    const [at, id] = decodeCursor(input.cursor, fingerprint);
    if (typeof at !== 'string' || typeof id !== 'string' || Number.isNaN(Date.parse(at))) throw new ValidationError([{ location: 'query.cursor', message: 'Malformed cursor.', value: input.cursor }]);
    after = [at, id];
  }
  const [rows, total] = await Promise.all([favoritesPage(ctx.em, ctx.user.id, input.limit + 1, after), countFavorites(ctx.em, ctx.user.id)]);
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  const listings = await ctx.em.find(ListingSchema, { id: { $in: page.map((r) => r.listing_id) } });
  const byId = new Map(listings.map((l) => [l.id, l]));
  return {
    listings: page.map((r) => byId.get(r.listing_id)!).filter(Boolean),
    total,
    ...(rows.length > input.limit && last ? { nextCursor: encodeCursor(fingerprint, [new Date(last.created_at).toISOString(), last.listing_id]) } : {}),
  };
}
