import { sessionProcedure } from '../../trpc.js';
import { ZCounterInput, ZListing, ZListingRef } from '@hm/domain/listings';
import { acceptOffer as acceptOfferCommand, counterOffer as counterOfferCommand } from '@hm/domain/listings';
import { TAG, ownListingBody } from './_shared.js';

export const acceptOffer = sessionProcedure
  .meta({
    auth: 'session',
    openapi: { operationId: 'acceptListingOffer', method: 'POST', path: '/me/listings/{id}/offer/accept', tags: [TAG], summary: "Accept the marketplace's offer", description: 'The offer becomes the price (and its schedule the price schedule); the listing goes to `pending_approval`.' },
  })
  .input(ZListingRef)
  .output(ZListing)
  .mutation(async ({ ctx, input }) => ownListingBody(ctx, await acceptOfferCommand(ctx, input.id)));

export const counterOffer = sessionProcedure
  .meta({
    auth: 'session',
    requestExample: { amount: 140000 },
    openapi: { operationId: 'counterListingOffer', method: 'POST', path: '/me/listings/{id}/offer/counter', tags: [TAG], summary: 'Answer the offer with your price', description: "Sets the seller's price in the offer's currency; the listing goes to `pending_approval`." },
  })
  .input(ZCounterInput)
  .output(ZListing)
  .mutation(async ({ ctx, input }) => ownListingBody(ctx, await counterOfferCommand(ctx, input.id, input.amount)));
