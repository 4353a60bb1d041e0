import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { setCommission } from '@hm/domain/listings';
import { nullAs } from '../console-fields.js';
import { ZListingId, byListing, cliScope, consoleListing } from '../console-scope.js';
import { cmd, listingTarget, operation, perform } from '../operations.js';

export const ZCommissionPercent = nullAs(z.number().min(0).max(100).nullable(), 'default', 'Commission in percent for this listing; null ("default" on the command line) for the marketplace commission.');

/** `listings set-commission`, PUT /console/v1/listings/{id}/commission. */
export const setCommissionOp = operation({
  action: 'listing.set_commission',
  write: true,
  target: listingTarget,
  run: async (s, input: { id: string; percent: number | null }) => consoleListing(s.ctx, s, await setCommission(cmd(s), input.id, input.percent)),
});

export const setCommissionProcedure = consoleProcedure
  .input(ZListingId.extend({ percent: ZCommissionPercent }).describe("Override a listing's commission."))
  .mutation(async ({ ctx, input }) => perform(setCommissionOp, cliScope(ctx, await byListing(ctx, input.id)), input));
