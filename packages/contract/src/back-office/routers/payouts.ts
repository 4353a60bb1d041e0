import { z } from 'zod';
import { router } from '../../trpc.js';
import { perform } from '../../console/operations.js';
import { reconcilePayoutsOp } from '../../console/procedures/reconcile-payouts.js';
import { failedPayoutsOp, retryPayoutOp } from '../../console/procedures/failed-payouts.js';
import { operatorProcedure } from '../procedure.js';
import { openapi, read, write } from '../meta.js';
import { ZAnyObject } from '../schemas.js';

/** Payouts: the ledger check, the payouts the provider refused, and retrying one (`payouts reconcile|failed|retry`). */
export const payouts = router({
  reconcile: operatorProcedure
    .meta(
      read(
        openapi(
          'GET',
          '/payouts/reconciliation',
          'Payouts',
          'Reconcile the ledger',
          'For every settled order: charged − refunds = seller amount + commission + storage fee + marketplace shipping − voucher, and no order paid twice. `ok` false: `mismatches` and `paid_twice` say what does not add up; `open` counts orders still in flight; `failed_bank_payouts` lists sellers’ bank payouts that failed in the last 30 days.',
        ),
      ),
    )
    .input(z.object({}))
    .output(z.object({ ok: z.boolean(), checked: z.number().int(), open: z.number().int(), mismatches: z.array(ZAnyObject), paid_twice: z.array(z.string()), failed_bank_payouts: z.array(ZAnyObject) }))
    .query(async ({ ctx }) => {
      const r = await perform(reconcilePayoutsOp, ctx.scope, {});
      return { ...r, failed_bank_payouts: r.failed_bank_payouts.map((p) => ({ ...p })) };
    }),
  failed: operatorProcedure
    .meta(read(openapi('GET', '/payouts/failed', 'Payouts', 'Failed payouts', 'Payouts the provider refused for good, the latest first, with the reason (`account_not_ready`, `platform_balance_insufficient`, `currency_not_accepted`, `invalid_request`) and the provider’s words. Fix the cause, then retry.')))
    .input(z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).default(100).describe('1..1000, default 100.') }))
    .output(z.object({ items: z.array(ZAnyObject) }))
    .query(async ({ ctx, input }) => ({ items: (await perform(failedPayoutsOp, ctx.scope, input)).items.map((p) => ({ ...p })) })),
  retry: operatorProcedure
    .meta(write(openapi('POST', '/orders/{id}/payout/retry', 'Payouts', 'Retry a failed payout', 'Admins only. The order’s failed payout goes back to pending and is paid in the background (or fails again, saying why). 409 when the payout has not failed.'), { problems: [409] }))
    .input(z.strictObject({ id: z.uuid() }))
    .output(z.object({ order_id: z.string(), status: z.string() }))
    .mutation(({ ctx, input }) => perform(retryPayoutOp, ctx.scope, { order: input.id })),
});
