import { sessionProcedure } from '../../trpc.js';
import { ZListing, ZListingRef } from '@hm/domain/listings';
import { closeListing as closeListingCommand } from '@hm/domain/listings';
import { TAG, ownListingBody } from './_shared.js';

export const closeListing = sessionProcedure
  .meta({ auth: 'session', openapi: { operationId: 'closeListing', method: 'POST', path: '/me/listings/{id}/close', tags: [TAG], summary: 'Close a listing', description: 'Takes a listing on sale out of the shop (409 otherwise). It can be published again.' } })
  .input(ZListingRef)
  .output(ZListing)
  .mutation(async ({ ctx, input }) => ownListingBody(ctx, await closeListingCommand(ctx, input.id)));
