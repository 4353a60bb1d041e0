import { consoleProcedure } from '../../trpc.js';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { perform } from '../operations.js';
import { listVouchersOp } from './create-voucher.js';

export const listVouchersProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe("The marketplace's vouchers, newest first, with their uses."))
  .query(async ({ ctx, input }) => perform(listVouchersOp, cliScope(ctx, await scoped(ctx, input.marketplace)), {}));
