import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { ZAmountInput, ZPriceScheduleInput } from '@hm/domain/listings';
import { offerForListing } from '@hm/domain/listings';
import { ZListingId, byListing, consoleListing } from '../console-scope.js';

export const offerForListingProcedure = consoleProcedure
  .input(
    ZListingId.extend({
      amount: ZAmountInput.min(1).describe('Offered price in minor units (öre, cents); at most one payment\'s limit, 99 999 999.'),
      currency: z.string().length(3).describe("One of the marketplace's currencies."),
      note: z.string().max(2000).default('').describe('Shown to the seller with the offer.'),
      schedule: ZPriceScheduleInput.optional().describe('Price drops as JSON, each below the offer and the step before, e.g. [{"months":2,"amount":9000}].'),
    }).describe('Offer the seller a price (a valuation); the seller is emailed and answers from the storefront.'),
  )
  .mutation(async ({ ctx, input }) => {
    const scope = await byListing(ctx, input.id);
    return consoleListing(ctx, scope, await offerForListing(scope.cmd, input.id, input));
  });
