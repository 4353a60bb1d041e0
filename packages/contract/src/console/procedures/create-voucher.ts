import type { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { createVoucher, listVouchers, ZVoucherInput } from '@hm/domain/vouchers';
import { fromFile } from '../console-fields.js';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { operation, perform } from '../operations.js';

/** `vouchers create|list`, POST and GET /console/v1/vouchers. */
export const createVoucherOp = operation({
  action: 'voucher.create',
  write: true,
  target: (_i, out: { voucher: { id: string } }) => ({ type: 'voucher', id: out.voucher.id }),
  run: async (s, input: z.output<typeof ZVoucherInput>) => ({ voucher: await createVoucher(s.em, s.marketplace, input, s.ctx.clock.now()) }),
});

export const listVouchersOp = operation({
  action: 'vouchers.list',
  write: false,
  target: () => ({ type: 'voucher', id: '' }),
  run: async (s, _input: object) => ({ items: await listVouchers(s.em) }),
});

export const createVoucherProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({
      voucher: fromFile(ZVoucherInput, 'Voucher JSON: {code, percent | amount + currency, min_total, starts_at, ends_at, max_uses, once_per_buyer}.'),
    }).describe('Create a voucher code buyers can use at checkout.'),
  )
  .mutation(async ({ ctx, input }) => perform(createVoucherOp, cliScope(ctx, await scoped(ctx, input.marketplace)), input.voucher));
