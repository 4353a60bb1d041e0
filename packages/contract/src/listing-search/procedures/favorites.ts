import { z } from 'zod';
import { sessionProcedure } from '../../trpc.js';
import { loadRelations } from '@hm/domain/listings';
import { listFavorites as listFavoritesCommand, removeFavorite, saveFavorite } from '@hm/domain/listing-search';
import { toShopListing } from '@hm/domain/listing-search';
import { ZFavoritesInput, ZFavoritesPage } from '@hm/domain/listing-search';
import { ratesToday } from './shop-context.js';

const TAG = 'Favourites';
const ZRef = z.strictObject({ id: z.uuid() });

export const listFavorites = sessionProcedure
  .meta({ auth: 'session', openapi: { operationId: 'listMyFavorites', method: 'GET', path: '/me/favorites', tags: [TAG], summary: 'Saved listings', description: 'Latest saved first, including listings no longer on sale (see `status` and `seller_blocked`).' } })
  .input(ZFavoritesInput)
  .output(ZFavoritesPage)
  .query(async ({ ctx, input }) => {
    const [{ listings, total, nextCursor }, rates] = await Promise.all([listFavoritesCommand(ctx, input), ratesToday(ctx, input.currency)]);
    const rel = await loadRelations(ctx.em, listings);
    const favorites = new Set(listings.map((l) => l.id));
    return {
      items: listings.map((l) => toShopListing(l, rel, { marketplace: ctx.marketplace, publicUrl: ctx.publicUrl, rates, currency: input.currency, favorites })),
      total,
      ...(nextCursor ? { next_cursor: nextCursor } : {}),
    };
  });

export const putFavorite = sessionProcedure
  .meta({ auth: 'session', successStatus: 204, openapi: { operationId: 'addFavorite', method: 'PUT', path: '/me/favorites/{id}', tags: [TAG], summary: 'Save a listing', description: 'Only listings on sale (404 otherwise); saving twice is fine.' } })
  .input(ZRef)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await saveFavorite(ctx, input.id);
  });

export const deleteFavorite = sessionProcedure
  .meta({ auth: 'session', successStatus: 204, openapi: { operationId: 'removeFavorite', method: 'DELETE', path: '/me/favorites/{id}', tags: [TAG], summary: 'Forget a saved listing', description: 'Idempotent by design: 204 for any listing id, whether it was saved, is on sale or exists at all (a retry after a lost answer must not fail).' } })
  .input(ZRef)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await removeFavorite(ctx, input.id);
  });
