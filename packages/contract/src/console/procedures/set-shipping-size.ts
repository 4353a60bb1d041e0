import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { setShippingSize } from '@hm/domain/listings';
import { ZListingId, byListing, consoleListing } from '../console-scope.js';

export const setShippingSizeProcedure = consoleProcedure
  .input(ZListingId.extend({ size: z.string().max(40).describe("A size key of the marketplace's shipping table; empty for none.") }).describe("Set a listing's shipping size."))
  .mutation(async ({ ctx, input }) => {
    const scope = await byListing(ctx, input.id);
    return consoleListing(ctx, scope, await setShippingSize(scope.cmd, input.id, input.size));
  });
