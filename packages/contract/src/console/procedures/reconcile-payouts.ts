import { consoleProcedure } from '../../trpc.js';
import { reconcile } from '@hm/domain/payouts';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { operation, perform } from '../operations.js';

export const reconcilePayoutsOp = operation({
  action: 'payouts.reconcile',
  write: false,
  target: () => ({ type: 'payouts', id: '' }),
  // the window of failed bank payouts is against real time: their times are the provider's clock, not the service's (tests move only the latter)
  run: (s, _input: object) => reconcile(s.em),
});

export const reconcilePayoutsProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe("Checks the ledger: for every settled order, charged − refunds = seller amount + commission + storage fee + marketplace shipping − voucher, and that no order was paid twice. `ok` false lists what does not add up."))
  .query(async ({ ctx, input }) => perform(reconcilePayoutsOp, cliScope(ctx, await scoped(ctx, input.marketplace)), {}));
