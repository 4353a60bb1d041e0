import { z } from 'zod';
import { crossTenantEm, tenantEm } from '@hm/db/orm';
import { defineTask, type TaskContext } from '../../core/tasks.js';
import type { PaymentEventHandlerLookup } from '../payment-event-handler.js';
import { closeUnscopedPaymentEvent, findPaymentEvent, lockUnhandledPaymentEvent, markPaymentEventHandled } from '../payment-events.queries.js';

let handlerFor: PaymentEventHandlerLookup | undefined;

/**
 * What each event type means is decided above the modules (flows/payment-events.ts registers its
 * PAYMENT_EVENT_HANDLERS here when loaded; the task list loads it): payments stores events and runs
 * each once, without knowing orders or payouts.
 */
export function registerPaymentEventHandlers(lookup: PaymentEventHandlerLookup): void {
  handlerFor = lookup;
}

/**
 * The `handle-payment-event` job: one stored provider event, dispatched by type through the
 * registered handlers. The event row is locked and marked handled in the handler's transaction,
 * so a second run (a retry, a duplicate job) finds it handled and changes nothing.
 */
export async function handlePaymentEvent(ctx: TaskContext, eventId: string): Promise<string> {
  // never mark an event handled without its handlers: the job fails and retries instead
  if (!handlerFor) throw new Error('No payment event handlers registered: load flows/payment-events.ts (the task list does).');
  const lookup = handlerFor;
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
    const handler = lookup(event.type);
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
