import { consoleProcedure } from '../../trpc.js';
import { ZListingId, byListing, cliScope } from '../console-scope.js';
import { approveListingOp, perform } from '../operations.js';

export const approveListingProcedure = consoleProcedure
  .input(ZListingId.describe('Approve a listing waiting for review; the seller is emailed.'))
  .mutation(async ({ ctx, input }) => perform(approveListingOp, cliScope(ctx, await byListing(ctx, input.id)), input));
