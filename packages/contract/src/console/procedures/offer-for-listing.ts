import { consoleProcedure } from '../../trpc.js';
import { ZListingId, byListing, cliScope } from '../console-scope.js';
import { ZOfferFields, offerForListingOp, perform } from '../operations.js';

export const offerForListingProcedure = consoleProcedure
  .input(ZListingId.extend(ZOfferFields).describe('Offer the seller a price (a valuation); the seller is emailed and answers from the storefront.'))
  .mutation(async ({ ctx, input }) => perform(offerForListingOp, cliScope(ctx, await byListing(ctx, input.id)), input));
