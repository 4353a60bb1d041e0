import { z } from 'zod';
import { crossTenantEm, uuidv7, type MikroORM } from '@hm/db/orm';
import type { Clock } from '../../core/ports/index.js';
import { addJob, jobKey } from '../../core/jobs.js';
import { insertPaymentEvent } from '../payment-events.queries.js';
import type { PaymentEvent } from '../../core/ports/payments.js';
import { handlePaymentEventTask } from './handle-payment-event.js';

export interface RecordedPaymentEvent {
  /** the provider's event id */
  id: string;
  type: string;
  /** false: stored before (a provider's retry or replay); nothing new happens */
  stored: boolean;
}

const uuidOrNull = (v: string | undefined) => (v !== undefined && z.uuid().safeParse(v).success ? v : null);

/**
 * The one way provider events enter the service, whichever provider sent them (Stripe's webhook,
 * the sandbox through the test helper): each is stored once by its provider's id and, when new,
 * handed to a `handle-payment-event` job in the same transaction — a replayed event is stored once
 * and handled once. Events naming no marketplace of ours are stored too (and ignored by the job).
 */
export async function recordPaymentEvents(deps: { orm: MikroORM; clock: Clock }, events: readonly PaymentEvent[]): Promise<RecordedPaymentEvent[]> {
  const now = deps.clock.now();
  // the webhook does not know the tenant until it reads the event: stored across tenants on purpose
  return crossTenantEm(deps.orm).transactional(async (em) => {
    const recorded: RecordedPaymentEvent[] = [];
    for (const e of events) {
      const id = await insertPaymentEvent(em, {
        id: uuidv7(),
        claimed_marketplace_id: uuidOrNull(e.marketplaceId),
        provider: e.provider,
        provider_event_id: e.id,
        type: e.type,
        payment_id: e.paymentId ?? null,
        order_id: uuidOrNull(e.orderId),
        account_id: e.connectedAccount ?? null,
        // kept with the object: the handler of a connected account's event (payout.failed) needs to know whose it is
        data: e.connectedAccount ? { ...e.data, account: e.connectedAccount } : e.data,
        provider_created_at: e.createdAt,
        created_at: now,
      });
      if (id) await addJob(em, handlePaymentEventTask, { payment_event_id: id }, { jobKey: jobKey(handlePaymentEventTask, id) });
      recorded.push({ id: e.id, type: e.type, stored: id !== undefined });
    }
    return recorded;
  });
}
