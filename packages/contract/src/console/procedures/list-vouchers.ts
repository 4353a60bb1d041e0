import { consoleProcedure } from '../../trpc.js';
import { listVouchers } from '@hm/domain/vouchers';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

export const listVouchersProcedure = consoleProcedure.input(ZMarketplaceRef.describe("The marketplace's vouchers, newest first, with their uses.")).query(async ({ ctx, input }) => {
  const { em } = await scoped(ctx, input.marketplace);
  return { items: await listVouchers(em) };
});
