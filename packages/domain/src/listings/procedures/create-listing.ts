import { sessionProcedure } from '../../trpc.js';
import { ZListing, ZListingInput } from '../listing.schema.js';
import { createListing as createListingCommand } from '../commands/save-listing.js';
import { TAG, ownListingBody } from './_shared.js';

export const createListing = sessionProcedure
  .meta({
    auth: 'session',
    successStatus: 201,
    openapi: { method: 'POST', path: '/me/listings', tags: [TAG], summary: 'Create a listing', description: 'A draft; it may be incomplete. `shipping_size` is set by the marketplace team (403 when a seller sets it).' },
  })
  .input(ZListingInput)
  .output(ZListing)
  .mutation(async ({ ctx, input }) => ownListingBody(ctx, await createListingCommand(ctx, input)));
