import { keyProcedure } from '../../trpc.js';
import { NotFoundError } from '@hm/domain/core';
import { loadRelations } from '@hm/domain/listings';
import { savedAmong } from '@hm/domain/listing-search';
import { toShopListing } from '@hm/domain/listing-search';
import { displayNameOf, listingOnSale, shopRelationReads } from '@hm/domain/listing-search';
import { ZGetListingInput, ZShopListing } from '@hm/domain/listing-search';
import { optionalUser, ratesToday } from './shop-context.js';

export const getListing = keyProcedure
  .meta({
    auth: 'key',
    publicRead: true,
    showsListings: 'one',
    optionalSession: true,
    problems: [403],
    openapi: { operationId: 'getListing', method: 'GET', path: '/listings/{id}', tags: ['Listings'], summary: 'A listing on sale', description: "Listings not on sale answer 404. Terms carry their descriptions by language; `seller` carries the seller's public name." },
  })
  .input(ZGetListingInput)
  .output(ZShopListing)
  .query(async ({ ctx, input }) => {
    const [user, rates] = await Promise.all([optionalUser(ctx), ratesToday(ctx, input.currency)]);
    const l = await listingOnSale(ctx.em, input.id);
    if (!l) throw new NotFoundError('This listing');
    const [rel, favorites, sellerName] = await Promise.all([
      loadRelations(ctx.em, [l], shopRelationReads(ctx.em)),
      user ? savedAmong(ctx.em, user.id, [l.id]) : undefined,
      displayNameOf(ctx.em, l.sellerId),
    ]);
    const body = toShopListing(l, rel, { marketplace: ctx.marketplace, publicUrl: ctx.publicUrl, rates, currency: input.currency, favorites, single: true });
    // only the public name: a product page says who sells it without a second call
    return { ...body, seller: { id: l.sellerId, display_name: sellerName } };
  });
