import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { setCommission } from '@hm/domain/listings';
import { nullAs } from '../console-fields.js';
import { ZListingId, byListing, consoleListing } from '../console-scope.js';

export const setCommissionProcedure = consoleProcedure
  .input(
    ZListingId.extend({ percent: nullAs(z.number().min(0).max(100).nullable(), 'default', 'Commission in percent for this listing; "default" for the marketplace commission.') }).describe(
      "Override a listing's commission.",
    ),
  )
  .mutation(async ({ ctx, input }) => {
    const scope = await byListing(ctx, input.id);
    return consoleListing(ctx, scope, await setCommission(scope.cmd, input.id, input.percent));
  });
