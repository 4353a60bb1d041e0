import { sessionProcedure } from '../../trpc.js';
import { ZListing, ZListingInput } from '@hm/domain/listings';
import { createListing as createListingCommand } from '@hm/domain/listings';
import { TAG, ownListingBody } from './_shared.js';

export const createListing = sessionProcedure
  .meta({
    auth: 'session',
    successStatus: 201,
    requestExample: { title: 'Oak armchair, 1962', locale: 'en', price: { amount: 150000, currency: 'SEK' }, category_id: '0192d5e8-6a10-7c22-8d4e-1f2a3b4c5d6e', terms: { brand: '0192d5e8-6a11-7d33-a5e6-2a3b4c5d6e7f' }, attributes: { condition: 'good' }, location: { city: 'Stockholm', country: 'SE', postal_code: '11646' }, delivery: { pickup: true } },
    openapi: { operationId: 'createListing', method: 'POST', path: '/me/listings', tags: [TAG], summary: 'Create a listing', description: 'A draft; it may be incomplete. `shipping_size` is set by the marketplace team (403 when a seller sets it).' },
  })
  .input(ZListingInput)
  .output(ZListing)
  .mutation(async ({ ctx, input }) => ownListingBody(ctx, await createListingCommand(ctx, input)));
