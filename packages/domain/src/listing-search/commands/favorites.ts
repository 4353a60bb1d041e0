import { ListingSchema } from '@hm/db/entities';
import type { UserCommandContext } from '../../context.js';
import { NotFoundError } from '../../errors.js';
import { keyset } from '../../shared/keyset.js';
import { ON_SALE } from './search-listings.js';

/**
 * PUT /v1/me/favorites/{id}: only listings on sale; saving twice is fine. The count moves only
 * when a row was really added (primary key on user + listing), so it stays exact under races.
 */
export async function saveFavorite(ctx: UserCommandContext, listingId: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const [onSale] = await em.execute<{ id: string }[]>(`select l.id from listings l where l.marketplace_id = ? and l.id = ? and ${ON_SALE}`, [ctx.marketplace.id, listingId]);
    if (!onSale) throw new NotFoundError('This listing');
    const added = await em.execute<{ listing_id: string }[]>(
      `insert into favorites (marketplace_id, user_id, listing_id, created_at) values (?, ?, ?, ?) on conflict do nothing returning listing_id`,
      [ctx.marketplace.id, ctx.user.id, listingId, ctx.clock.now()],
    );
    if (added.length) await em.execute(`update listings set favorite_count = favorite_count + 1 where id = ?`, [listingId]);
  });
}

/** DELETE /v1/me/favorites/{id}: 204 whether or not it was saved (and for listings no longer on sale). */
export async function removeFavorite(ctx: UserCommandContext, listingId: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const removed = await em.execute<{ listing_id: string }[]>(`delete from favorites where marketplace_id = ? and user_id = ? and listing_id = ? returning listing_id`, [
      ctx.marketplace.id,
      ctx.user.id,
      listingId,
    ]);
    if (removed.length) await em.execute(`update listings set favorite_count = favorite_count - 1 where id = ? and favorite_count > 0`, [listingId]);
  });
}

/** GET /v1/me/favorites: latest saved first, including listings no longer on sale; keyset on (saved at, listing id). */
export async function listFavorites(ctx: UserCommandContext, input: { limit: number; cursor?: string }) {
  const pages = keyset(`favorites:${ctx.marketplace.id}:${ctx.user.id}`, ['timestamptz', 'uuid']);
  const after = pages.after(input.cursor);
  const [rows, [counted]] = await Promise.all([
    ctx.em.execute<{ listing_id: string; created_at: Date }[]>(
      `select listing_id, created_at from favorites where marketplace_id = ? and user_id = ?${after ? ' and (created_at, listing_id) < (?::timestamptz, ?::uuid)' : ''}
        order by created_at desc, listing_id desc limit ?`,
      [ctx.marketplace.id, ctx.user.id, ...(after ?? []), input.limit + 1],
    ),
    ctx.em.execute<{ total: number }[]>(`select count(*)::int as total from favorites where marketplace_id = ? and user_id = ?`, [ctx.marketplace.id, ctx.user.id]),
  ]);
  const { items: page, nextCursor } = pages.page(rows, input.limit, (r) => [r.created_at, r.listing_id]);
  const listings = await ctx.em.find(ListingSchema, { id: { $in: page.map((r) => r.listing_id) } });
  const byId = new Map(listings.map((l) => [l.id, l]));
  return { listings: page.map((r) => byId.get(r.listing_id)!).filter(Boolean), total: counted!.total, ...(nextCursor ? { nextCursor } : {}) };
}
