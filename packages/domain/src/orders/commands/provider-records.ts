import { OrderSchema, type Order } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';

/**
 * What the provider's events about an order's money record on the order (flows/settlement.ts runs
 * them in the event's transaction). Neither is a state move: the order keeps its state.
 */

/** The order, locked for the event's transaction; null when it is not ours. */
export const lockOrder = (em: EntityManager, id: string): Promise<Order | null> => em.findOne(OrderSchema, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });

/** A dispute's final statuses at the provider (Stripe's); a closed dispute does not reopen. */
const CLOSED = new Set(['won', 'lost', 'warning_closed']);

/**
 * `charge.dispute.*`: the order keeps the chargeback as the provider says it (id, status), with the
 * reason it was opened with.
 * Events may arrive out of order: once the order's chargeback is closed, a late event of the same
 * dispute with an open status changes nothing (and says so).
 */
export function recordChargeback(order: Order, data: Record<string, unknown>, now: Date): { chargeback: NonNullable<Order['chargeback']> } | { skipped: string } {
  const next = { id: String(data.id ?? ''), reason: String(data.reason ?? 'general'), status: String(data.status ?? 'needs_response') };
  if (order.chargeback && order.chargeback.id === next.id && CLOSED.has(order.chargeback.status) && !CLOSED.has(next.status)) {
    return { skipped: `order ${order.id}: chargeback ${next.id} is closed (${order.chargeback.status}): a late ${next.status} changes nothing` };
  }
  // the dispute's reason is the one it was opened with: a later event of the same dispute (Stripe's
  // closing event may carry another) never replaces it
  if (order.chargeback?.id === next.id) next.reason = order.chargeback.reason;
  order.chargeback = next;
  order.updatedAt = now;
  return { chargeback: next };
}

/**
 * `charge.refunded`: the charge's refunded total, less what the service refunds itself (the whole
 * payment of a canceled order, or of one paid after its window), is what was refunded outside the
 * service (the provider's dashboard). Returns its growth since the last event (the ledger's refund
 * row), or why nothing grew.
 */
export function recordRefundOutside(order: Order, refunded: number, now: Date): { grown: number } | { skipped: string } {
  const ours = order.status === 'canceled' || order.history.some((h) => h.transition === 'confirm-payment' && h.to === 'payment_expired') ? order.total : 0;
  const outside = Math.max(0, refunded - ours);
  if (outside <= order.refundedOutside) return { skipped: `order ${order.id}: no refund outside the service (${refunded} refunded, ${ours} by us)` };
  const grown = outside - order.refundedOutside;
  order.refundedOutside = outside;
  order.updatedAt = now;
  return { grown };
}
