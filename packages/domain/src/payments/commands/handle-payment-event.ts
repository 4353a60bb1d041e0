import { z } from 'zod';
import { crossTenantEm, tenantEm } from '@hm/db/orm';
import { defineTask, type TaskContext } from '../../shared/tasks.js';
import { paymentEventHandler } from '../handlers.js';
import { closeUnscopedPaymentEvent, findPaymentEvent, lockUnhandledPaymentEvent, markPaymentEventHandled } from '../payment-events.queries.js';

/**
 * The `handle-payment-event` job: one stored provider event, dispatched by type through
 * PAYMENT_EVENT_HANDLERS. The event row is locked and marked handled in the handler's transaction,
 * so a second run (a retry, a duplicate job) finds it handled and changes nothing.
 */
export async function handlePaymentEvent(ctx: TaskContext, eventId: string): Promise<string> {
  const found = await findPaymentEvent(crossTenantEm(ctx.orm), eventId);
  if (!found) return 'no such event';
  if (found.handled_at) return `already handled: ${found.outcome}`;
  const now = ctx.clock.now();
  if (found.marketplace_id === null) {
    const outcome = 'ignored: the event names no marketplace of ours';
    return (await closeUnscopedPaymentEvent(crossTenantEm(ctx.orm), eventId, outcome, now)) ? outcome : 'already handled';
  }
  const marketplaceId = found.marketplace_id;
  return tenantEm(ctx.orm, marketplaceId).transactional(async (em) => {
    const event = await lockUnhandledPaymentEvent(em, eventId);
    if (!event) return 'already handled';
    const handler = paymentEventHandler(event.type);
    const outcome = handler ? await handler({ ...event, marketplace_id: marketplaceId }, { ...ctx, em, marketplaceId }) : `ignored: ${event.type} is not an event we act on`;
    await markPaymentEventHandled(em, eventId, outcome, now);
    return outcome;
  });
}

export const handlePaymentEventTask = defineTask({
  name: 'handle-payment-event',
  payload: z.object({ payment_event_id: z.uuid() }),
  run: (p, ctx) => handlePaymentEvent(ctx, p.payment_event_id),
});
