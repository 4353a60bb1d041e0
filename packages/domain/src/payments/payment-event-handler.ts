import type { EntityManager } from '@hm/db/orm';
import type { TaskContext } from '../core/tasks.js';
import type { PaymentEventRow } from './payment-events.queries.js';

/** A stored event whose marketplace is known (events of no marketplace of ours never reach a handler). */
export type StoredPaymentEvent = PaymentEventRow & { marketplace_id: string };

/**
 * What a handler works with: the task's ports and an entity manager scoped to the event's
 * marketplace, inside the transaction that marks the event handled, so jobs it adds commit with
 * that mark (and a handler that throws leaves the event unhandled, for the job's retry).
 */
export interface PaymentEventContext extends TaskContext {
  em: EntityManager;
  marketplaceId: string;
}

/** Acts on one event type; says what happened (the event's stored `outcome`). Runs at most once per event. */
export type PaymentEventHandler = (event: StoredPaymentEvent, ctx: PaymentEventContext) => Promise<string>;

/** Finds the handler of an event type (the payment-events flow's table); undefined: stored and ignored. */
export type PaymentEventHandlerLookup = (type: string) => PaymentEventHandler | undefined;
