import { z } from 'zod';
import { LISTING_STATUSES, ListingSchema } from '@hm/db/entities';
import { NotFoundError } from '@hm/domain/core';
import { listListingsForTeam } from '@hm/domain/listings';
import { router } from '../../trpc.js';
import { consoleListing } from '../../console/console-scope.js';
import { ZDenyNote, ZOfferFields, approveListingOp, denyListingOp, offerForListingOp, perform } from '../../console/operations.js';
import { operatorProcedure } from '../procedure.js';
import { openapi, read, write, ZId } from '../meta.js';
import { ZAnyObject, ZPage, ZPaging } from '../schemas.js';

const ZListingOut = z.object({ listing: ZAnyObject });

export const listings = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/listings', 'Listings', 'Listings', 'Every seller’s, latest change first; `status=pending_approval` is the review queue.')))
    .input(z.strictObject({ status: z.enum(LISTING_STATUSES).optional(), ...ZPaging }))
    .output(ZPage(ZAnyObject))
    .query(async ({ ctx, input }) => {
      const { em, marketplace } = ctx.scope;
      const page = await listListingsForTeam(em, marketplace.id, input);
      const items = await Promise.all(page.items.map(async (l) => (await consoleListing(ctx, ctx.scope, l)).listing));
      return { items, ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}) };
    }),
  get: operatorProcedure
    .meta(read(openapi('GET', '/listings/{id}', 'Listings', 'A listing')))
    .input(ZId)
    .output(ZListingOut)
    .query(async ({ ctx, input }) => {
      const l = await ctx.scope.em.findOne(ListingSchema, { id: input.id });
      if (!l) throw new NotFoundError('This listing');
      return consoleListing(ctx, ctx.scope, l);
    }),
  approve: operatorProcedure
    .meta(write(openapi('POST', '/listings/{id}/approve', 'Listings', 'Approve', 'The listing goes on sale; the seller is emailed.'), { problems: [403, 409] }))
    .input(ZId)
    .output(ZListingOut)
    .mutation(({ ctx, input }) => perform(approveListingOp, ctx.scope, input)),
  deny: operatorProcedure
    .meta(write(openapi('POST', '/listings/{id}/deny', 'Listings', 'Deny', 'The seller is emailed the note.'), { problems: [403, 409], requestExample: { note: 'Photos are too dark.' } }))
    .input(z.strictObject({ id: z.uuid(), note: ZDenyNote }))
    .output(ZListingOut)
    .mutation(({ ctx, input }) => perform(denyListingOp, ctx.scope, input)),
  offer: operatorProcedure
    .meta(write(openapi('POST', '/listings/{id}/offer', 'Listings', 'Offer a price', 'A valuation: the seller is emailed and answers from the storefront.'), { problems: [403, 409], requestExample: { price: { amount: 12000, currency: 'SEK' }, note: 'Our offer.' } }))
    .input(
      z.strictObject({
        id: z.uuid(),
        price: z.strictObject({ amount: ZOfferFields.amount, currency: ZOfferFields.currency }),
        note: ZOfferFields.note,
        schedule: ZOfferFields.schedule,
      }),
    )
    .output(ZListingOut)
    .mutation(({ ctx, input }) => perform(offerForListingOp, ctx.scope, { id: input.id, amount: input.price.amount, currency: input.price.currency, note: input.note, schedule: input.schedule })),
});
