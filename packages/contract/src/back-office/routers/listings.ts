import { z } from 'zod';
import { LISTING_STATUSES, ListingSchema } from '@hm/db/entities';
import { NotFoundError } from '@hm/domain/core';
import { listListingsForTeam } from '@hm/domain/listings';
import { router } from '../../trpc.js';
import { consoleListing, consoleListings } from '../../console/console-scope.js';
import { ZDenyNote, ZOfferFields, approveListingOp, denyListingOp, offerForListingOp, perform } from '../../console/operations.js';
import { ZShippingSize, setShippingSizeOp } from '../../console/procedures/set-shipping-size.js';
import { ZCommissionPercent, setCommissionOp } from '../../console/procedures/set-commission.js';
import { ZCustodyFields, setCustodyOp } from '../../console/procedures/set-custody.js';
import { operatorProcedure } from '../procedure.js';
import { openapi, read, write, ZId } from '../meta.js';
import { ZConsoleListing, ZPage, ZPaging } from '../schemas.js';

const ZListingOut = z.object({ listing: ZConsoleListing });

export const listings = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/listings', 'Listings', 'Listings', 'Every seller’s, latest change first, each with its `seller` (id, display name and email); `status=pending_approval` is the review queue.')))
    .input(z.strictObject({ status: z.enum(LISTING_STATUSES).optional(), ...ZPaging }))
    .output(ZPage(ZConsoleListing))
    .query(async ({ ctx, input }) => {
      const { em, marketplace } = ctx.scope;
      const page = await listListingsForTeam(em, marketplace.id, input);
      const items = await consoleListings(ctx, ctx.scope, page.items);
      return { items, ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}) };
    }),
  get: operatorProcedure
    .meta(read(openapi('GET', '/listings/{id}', 'Listings', 'A listing', 'Any status, with its photos, seller, price schedule and the commission override.')))
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
  setShippingSize: operatorProcedure
    .meta(
      write(openapi('PUT', '/listings/{id}/shipping-size', 'Listings', 'Set the shipping size', "Admins only. A size key of the marketplace's shipping table (`settings.shipping.sizes`), or empty for none; another key is 422 at `body.size`."), {
        requestExample: { size: 'small' },
      }),
    )
    .input(z.strictObject({ id: z.uuid(), size: ZShippingSize }))
    .output(ZListingOut)
    .mutation(({ ctx, input }) => perform(setShippingSizeOp, ctx.scope, input)),
  setCommission: operatorProcedure
    .meta(
      write(openapi('PUT', '/listings/{id}/commission', 'Listings', 'Set the commission', "Admins only. This listing's commission in percent (0..100), or null for the marketplace's commission."), {
        requestExample: { percent: 8.5 },
      }),
    )
    .input(z.strictObject({ id: z.uuid(), percent: ZCommissionPercent }))
    .output(ZListingOut)
    .mutation(({ ctx, input }) => perform(setCommissionOp, ctx.scope, input)),
  setCustody: operatorProcedure
    .meta(
      write(openapi('PUT', '/listings/{id}/custody', 'Listings', 'Set who has the item', 'Admins only. `seller`, or the marketplace `collecting` it or holding it `stored` at a site (`site`, one of the marketplace’s sites).'), {
        problems: [409],
        requestExample: { custody: 'collecting', site: '0190f0e0-0000-7000-8000-000000000042' },
      }),
    )
    .input(z.strictObject({ id: z.uuid(), ...ZCustodyFields }))
    .output(ZListingOut)
    .mutation(({ ctx, input }) => perform(setCustodyOp, ctx.scope, input)),
});
