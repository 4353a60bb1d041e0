import { consoleProcedure } from '../../trpc.js';
import { createVoucher } from '@hm/domain/vouchers';
import { ZVoucherInput } from '@hm/domain/vouchers';
import { fromFile } from '../console-fields.js';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

export const createVoucherProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({
      voucher: fromFile(ZVoucherInput, 'Voucher JSON: {code, percent | amount + currency, min_total, starts_at, ends_at, max_uses, once_per_buyer}.'),
    }).describe('Create a voucher code buyers can use at checkout.'),
  )
  .mutation(async ({ ctx, input }) => {
    const { marketplace, em } = await scoped(ctx, input.marketplace);
    return { voucher: await createVoucher(em, marketplace, input.voucher, ctx.clock.now()) };
  });
