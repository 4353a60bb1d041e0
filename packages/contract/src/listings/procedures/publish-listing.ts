import { sessionProcedure } from '../../trpc.js';
import { ZListing, ZPublishInput } from '@hm/domain/listings';
import { publishListing as publishListingCommand } from '@hm/domain/listings';
import { TAG, ownListingBody } from './_shared.js';

export const publishListing = sessionProcedure
  .meta({
    auth: 'session',
    requestExample: { ask_valuation: false },
    openapi: {
      operationId: 'publishListing',
      method: 'POST',
      path: '/me/listings/{id}/publish',
      tags: [TAG],
      summary: 'Publish a listing',
      description:
        'From draft or closed: on sale (`published`) when complete; `pending_approval` when the marketplace approves listings (only title, photos, country and price are checked); `pending_valuation` with `ask_valuation` (no price needed). 422 lists every missing item at once.',
    },
  })
  .input(ZPublishInput)
  .output(ZListing)
  .mutation(async ({ ctx, input }) => ownListingBody(ctx, await publishListingCommand(ctx, input.id, { askValuation: input.ask_valuation ?? false, wantsStorage: input.wants_storage ?? false })));
