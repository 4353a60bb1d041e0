import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { denyListing } from '@hm/domain/listings';
import { ZListingId, byListing, consoleListing } from '../console-scope.js';

export const denyListingProcedure = consoleProcedure
  .input(ZListingId.extend({ note: z.string().min(1).max(2000).describe('Why, for the seller.') }).describe('Deny a listing waiting for review; the seller is emailed the note.'))
  .mutation(async ({ ctx, input }) => {
    const scope = await byListing(ctx, input.id);
    return consoleListing(ctx, scope, await denyListing(scope.cmd, input.id, input.note));
  });
