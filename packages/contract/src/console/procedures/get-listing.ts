import { ListingSchema } from '@hm/db/entities';
import { consoleProcedure } from '../../trpc.js';
import { ZListingId, byListing, consoleListing } from '../console-scope.js';

export const getListingProcedure = consoleProcedure
  .input(ZListingId.describe('A listing in any status, with its commission override.'))
  .query(async ({ ctx, input }) => {
    const scope = await byListing(ctx, input.id);
    return consoleListing(ctx, scope, await scope.em.findOneOrFail(ListingSchema, { id: input.id }));
  });
