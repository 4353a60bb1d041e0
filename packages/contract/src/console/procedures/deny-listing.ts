import { consoleProcedure } from '../../trpc.js';
import { ZListingId, byListing, cliScope } from '../console-scope.js';
import { ZDenyNote, denyListingOp, perform } from '../operations.js';

export const denyListingProcedure = consoleProcedure
  .input(ZListingId.extend({ note: ZDenyNote }).describe('Deny a listing waiting for review; the seller is emailed the note.'))
  .mutation(async ({ ctx, input }) => perform(denyListingOp, cliScope(ctx, await byListing(ctx, input.id)), input));
