import { consoleProcedure } from '../../trpc.js';
import { approveListing } from '@hm/domain/listings';
import { ZListingId, byListing, consoleListing } from '../console-scope.js';

export const approveListingProcedure = consoleProcedure
  .input(ZListingId.describe('Approve a listing waiting for review; the seller is emailed.'))
  .mutation(async ({ ctx, input }) => {
    const scope = await byListing(ctx, input.id);
    return consoleListing(ctx, scope, await approveListing(scope.cmd, input.id));
  });
