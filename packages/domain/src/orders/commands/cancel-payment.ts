import { z } from 'zod';
import { OrderSchema } from '@hm/db/entities';
import { tenantEm } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import { defineTask, type TaskContext } from '../../core/tasks.js';

const BATCH = 100;
/** provider calls at once: enough to overlap network round trips, few enough to be gentle with rate limits */
const PARALLEL = 8;

/**
 * The `cancel-payments` job: the provider's payments of the marketplace's orders whose payment window
 * ended (`payment_cancel_pending`) are canceled, so the buyers can no longer pay them; a payment
 * completed meanwhile is left alone by the port (its late confirmation is refunded). One job per
 * expiring transaction, not per order (thousands of windows can end together); it works through
 * every pending one, so a job that finds them done changes nothing. Each batch is locked while its
 * payments are canceled (a late confirmation of one of them waits that long). Idempotent at the
 * provider; a payment the provider fails to cancel stays pending and the job fails, to be retried.
 */
export async function cancelExpiredPayments(ctx: TaskContext, marketplaceId: string): Promise<string> {
  const em = tenantEm(ctx.orm, marketplaceId);
  const failed = new Map<string, string>();
  let canceled = 0;
  for (;;) {
    // a batch at a time, locked (SKIP LOCKED: runs at the same time share the work instead of repeating it)
    const done = await em.transactional(async (tx) => {
      const batch = await tx.find(
        OrderSchema,
        { paymentCancelPending: true, ...(failed.size ? { id: { $nin: [...failed.keys()] } } : {}) },
        { fields: ['id', 'paymentId'], orderBy: { id: 'asc' }, limit: BATCH, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
      );
      const ok: string[] = [];
      for (let i = 0; i < batch.length; i += PARALLEL) {
        await Promise.all(
          batch.slice(i, i + PARALLEL).map(async (o) => {
            try {
              if (o.paymentId) await ctx.payments.cancelPayment(o.paymentId);
              ok.push(o.id);
            } catch (e) {
              failed.set(o.id, (e as Error).message);
            }
          }),
        );
      }
      if (ok.length) await tx.nativeUpdate(OrderSchema, { id: { $in: ok } }, { paymentCancelPending: false });
      return batch.length ? ok.length : undefined;
    });
    if (done === undefined) break;
    canceled += done;
  }
  if (failed.size) throw new Error(`${failed.size} payment(s) could not be canceled yet (${[...failed.values()][0]}); ${canceled} canceled`);
  return `${canceled} payment(s) canceled`;
}

export const cancelPaymentsTask = defineTask({
  name: 'cancel-payments',
  payload: z.object({ marketplace_id: z.uuid() }),
  run: (p, ctx) => cancelExpiredPayments(ctx, p.marketplace_id),
});
