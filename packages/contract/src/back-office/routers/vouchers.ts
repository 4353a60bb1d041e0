import { z } from 'zod';
import { ZVoucherInput } from '@hm/domain/vouchers';
import { router } from '../../trpc.js';
import { perform } from '../../console/operations.js';
import { createVoucherOp, listVouchersOp } from '../../console/procedures/create-voucher.js';
import { operatorProcedure } from '../procedure.js';
import { openapi, read, write } from '../meta.js';
import { ZAnyObject } from '../schemas.js';

/** Voucher codes (`vouchers list|create` on the command line). */
export const vouchers = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/vouchers', 'Vouchers', 'Vouchers', "The marketplace's voucher codes, newest first, each with its uses (orders whose payment did not expire).")))
    .input(z.object({}))
    .output(z.object({ items: z.array(ZAnyObject) }))
    .query(({ ctx }) => perform(listVouchersOp, ctx.scope, {})),
  create: operatorProcedure
    .meta(
      write(
        openapi(
          'POST',
          '/vouchers',
          'Vouchers',
          'Create a voucher',
          'Admins only. `percent` off the items, or a fixed `amount` in `currency`; optional `min_total`, validity (`starts_at` until before `ends_at`), `max_uses` and `once_per_buyer`. Codes are case-insensitive: 409 for a code the marketplace has already.',
        ),
        { successStatus: 201, problems: [409], requestExample: { code: 'WINTER10', percent: 10, ends_at: '2027-01-31T23:00:00Z', once_per_buyer: true } },
      ),
    )
    .input(ZVoucherInput)
    .output(z.object({ voucher: ZAnyObject }))
    .mutation(({ ctx, input }) => perform(createVoucherOp, ctx.scope, input)),
});
