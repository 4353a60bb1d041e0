import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { setShippingSize } from '@hm/domain/listings';
import { ZListingId, byListing, cliScope, consoleListing } from '../console-scope.js';
import { cmd, listingTarget, operation, perform } from '../operations.js';

export const ZShippingSize = z.string().max(40).describe("A size key of the marketplace's shipping table; empty for none.");

/** `listings set-shipping-size`, PUT /console/v1/listings/{id}/shipping-size. */
export const setShippingSizeOp = operation({
  action: 'listing.set_shipping_size',
  write: true,
  target: listingTarget,
  run: async (s, input: { id: string; size: string }) => consoleListing(s.ctx, s, await setShippingSize(cmd(s), input.id, input.size)),
});

export const setShippingSizeProcedure = consoleProcedure
  .input(ZListingId.extend({ size: ZShippingSize }).describe("Set a listing's shipping size."))
  .mutation(async ({ ctx, input }) => perform(setShippingSizeOp, cliScope(ctx, await byListing(ctx, input.id)), input));
