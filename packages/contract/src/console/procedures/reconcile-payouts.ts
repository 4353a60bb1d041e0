import { consoleProcedure } from '../../trpc.js';
import { reconcile } from '@hm/domain/payouts';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

export const reconcilePayoutsProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe("Checks the ledger: for every settled order, charged − refunds = seller amount + commission + storage fee + marketplace shipping − voucher, and that no order was paid twice. `ok` false lists what does not add up."))
  .query(async ({ ctx, input }) => reconcile((await scoped(ctx, input.marketplace)).em));
