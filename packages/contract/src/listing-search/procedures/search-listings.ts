import { keyProcedure } from '../../trpc.js';
import { loadRelations } from '@hm/domain/listings';
import { searchListings as searchListingsCommand } from '@hm/domain/listing-search';
import { savedAmong } from '@hm/domain/listing-search';
import { toShopListing } from '@hm/domain/listing-search';
import { listingRowsInOrder, shopRelationReads } from '@hm/domain/listing-search';
import { ZSearchInput, ZSearchPage } from '@hm/domain/listing-search';
import { optionalUser, ratesToday } from './shop-context.js';

export const searchListings = keyProcedure
  .meta({
    auth: 'key',
    publicRead: true,
    showsListings: 'page',
    optionalSession: true,
    problems: [403],
    openapi: {
      operationId: 'listListings',
      method: 'GET',
      path: '/listings',
      tags: ['Listings'],
      summary: 'Search listings on sale',
      description:
        "Listings on sale (published, in stock, seller not blocked), filtered and sorted; cursor-paged (`next_cursor` absent on the last page; a cursor of another query is 422); `total` counts every match exactly up to 10 000; above that it may be an estimate within ±5 % (from a sample of the listings on sale), said by `total_is_estimate: true`. Prices in `min_price`/`max_price` are minor units of `currency` when given, else of the marketplace's default currency; prices in other currencies are compared at the day's rate. With `X-User-Session` (secret key) each listing says whether the user saved it. `q`'s words of 4+ letters also match inside longer words (`lampa` finds `taklampa`), words of 5–8 letters one typo away and of 9+ two (only words no listing title or term name starts with), each ranked below the word's own matches of the same tier; when nothing matches, `did_you_mean` offers the closest query that finds something. `facets` adds counts per category, term kind and price bucket (disjunctive: a facet's own filter does not narrow its counts).",
    },
  })
  .input(ZSearchInput)
  .output(ZSearchPage)
  .query(async ({ ctx, input }) => {
    const [user, rates] = await Promise.all([optionalUser(ctx), ratesToday(ctx, input.currency)]);
    const { ids, total, totalIsEstimate, nextCursor, didYouMean, facets, facetsAreEstimates } = await searchListingsCommand(ctx, input, rates);
    const listings = await listingRowsInOrder(ctx.em, ids);
    const [rel, favorites] = await Promise.all([loadRelations(ctx.em, listings, shopRelationReads(ctx.em)), user ? savedAmong(ctx.em, user.id, ids) : undefined]);
    const items = listings.map((l) => toShopListing(l, rel, { marketplace: ctx.marketplace, publicUrl: ctx.publicUrl, rates, currency: input.currency, favorites }));
    return {
      items,
      total,
      ...(totalIsEstimate ? { total_is_estimate: true as const } : {}),
      ...(nextCursor ? { next_cursor: nextCursor } : {}),
      ...(didYouMean ? { did_you_mean: didYouMean } : {}),
      ...(facets ? { facets } : {}),
      ...(facetsAreEstimates ? { facets_are_estimates: true as const } : {}),
    };
  });
