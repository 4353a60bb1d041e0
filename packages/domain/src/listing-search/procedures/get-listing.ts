import { ListingSchema } from '@hm/db/entities';
import { keyProcedure } from '../../trpc.js';
import { NotFoundError } from '../../errors.js';
import { loadRelations } from '../../listings/listing.mapper.js';
import { savedAmong } from '../favorites.queries.js';
import { toShopListing } from '../listing-search.mapper.js';
import { ZGetListingInput, ZShopListing } from '../listing-search.schema.js';
import { optionalUser, ratesToday } from './shop-context.js';

export const getListing = keyProcedure
  .meta({
    auth: 'key',
    optionalSession: true,
    problems: [403],
    openapi: { method: 'GET', path: '/listings/{id}', tags: ['Listings'], summary: 'A listing on sale', description: 'Listings not on sale answer 404. Terms carry their descriptions by language.' },
  })
  .input(ZGetListingInput)
  .output(ZShopListing)
  .query(async ({ ctx, input }) => {
    const [user, rates] = await Promise.all([optionalUser(ctx), ratesToday(ctx, input.currency)]);
    const l = await ctx.em.findOne(ListingSchema, { id: input.id, onSale: true });
    if (!l) throw new NotFoundError('This listing');
    const rel = await loadRelations(ctx.em, [l]);
    const favorites = user ? await savedAmong(ctx.em, user.id, [l.id]) : undefined;
    return toShopListing(l, rel, { marketplace: ctx.marketplace, publicUrl: ctx.publicUrl, rates, currency: input.currency, favorites, single: true });
  });
