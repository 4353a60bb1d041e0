import type { Marketplace, Order, OrderState } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { defineMachine, type Row } from '../core/state-machine.js';

/** The spec's order transitions; the automatic ones reuse the name of the move they stand for, by `system`. */
export const ORDER_EVENTS = [
  'confirm-payment',
  'expire-payment',
  'mark-delivered',
  'mark-received',
  'mark-received-early',
  'cancel',
  'dispute',
  'resolve-received',
  'resolve-canceled',
] as const;
export type OrderEvent = (typeof ORDER_EVENTS)[number];
/** The moves a signed-in user may ever take (spec: the user-facing transitions). */
export const USER_EVENTS = ['mark-delivered', 'mark-received', 'mark-received-early', 'dispute'] as const satisfies readonly OrderEvent[];
/** Placing an order is its first move; it is not a row (there is no order to move yet). */
export const PLACING = { transition: 'request-payment', from: '(new)' } as const;

/** OrderEvent's actors: the order's buyer or seller, the marketplace team (console), the service's own timers and payment events. */
export type OrderActor = 'buyer' | 'seller' | 'operator' | 'system';

export interface OrderMachineTypes {
  entity: Order;
  event: OrderEvent;
  actor: OrderActor;
  /**
   * `leftTimerSeenTo`: the caller removes the left state's timer job itself (a timer's own run,
   * which graphile-worker completes; a run that removes many at once): see move-order.ts's timers.
   */
  ctx: { em: EntityManager; marketplace: Marketplace; leftTimerSeenTo?: boolean };
  /** what the mover gives (`tracking_number`, `carrier` when marking sent; a note …), kept in history */
  data: Record<string, string>;
}
type OrderRow = Row<OrderMachineTypes>;

const BUYER = ['buyer'] as const;
const TEAM = ['operator'] as const;
const SYSTEM = ['system'] as const;
const sentBySeller = (o: Order) => o.fulfilment === 'seller' || 'The marketplace sends this order (the item is stored with it); the team marks it sent.';
const sentByTeam = (o: Order) => o.fulfilment === 'marketplace' || 'The seller sends this order; the seller marks it sent.';

/**
 * The spec's order table (States and transitions → Order states), row for row; "(new) →
 * pending_payment" is the placing of the order (flows/checkout.ts, orders openOrder). Automatic moves are the
 * `system` rows of the same transition (14 days after delivery, never sent within 14 days, 60 days
 * in dispute). The team's actors for `cancel`, `resolve-received` and `resolve-canceled` are ours to
 * choose (the spec does not say): operators, through the console.
 */
const table: OrderRow[] = [
  // from, event, to, who, guard (condition)
  { from: ['pending_payment'], event: 'confirm-payment', to: 'purchased', who: SYSTEM },
  { from: ['pending_payment'], event: 'expire-payment', to: 'payment_expired', who: SYSTEM },
  // not in the spec's table: the provider confirms a payment after its window ended (once); the order
  // stays expired, the move is kept in history and the payment is refunded (order.effects.ts)
  { from: ['payment_expired'], event: 'confirm-payment', to: 'payment_expired', who: SYSTEM, guard: (o) => !o.history.some((h) => h.transition === 'confirm-payment') },
  { from: ['purchased'], event: 'mark-delivered', to: 'delivered', who: ['seller'], guard: sentBySeller },
  { from: ['purchased'], event: 'mark-delivered', to: 'delivered', who: TEAM, guard: sentByTeam },
  { from: ['delivered'], event: 'mark-received', to: 'received', who: [...BUYER, ...SYSTEM] },
  { from: ['purchased'], event: 'mark-received-early', to: 'received', who: BUYER },
  { from: ['purchased'], event: 'cancel', to: 'canceled', who: [...TEAM, ...SYSTEM] },
  { from: ['delivered'], event: 'dispute', to: 'disputed', who: BUYER },
  { from: ['disputed'], event: 'resolve-received', to: 'received', who: TEAM },
  { from: ['disputed'], event: 'resolve-canceled', to: 'canceled', who: [...TEAM, ...SYSTEM] },
];
/** Every move changes the order; one that changes its state enters the new state now (`state_entered_at`). */
const rows = table.map((r): OrderRow => ({ ...r, stamp: r.from.includes(r.to as OrderState) ? ['updatedAt'] : ['stateEnteredAt', 'updatedAt'] }));

/** Where an order is, in words a buyer or seller can act on (refusals: "Cannot dispute this order: …"). */
const WHERE: Record<OrderState, string> = {
  pending_payment: 'it is waiting for payment',
  purchased: 'it is paid and not yet marked sent',
  delivered: 'it is marked sent and waiting for the buyer',
  received: 'it is received (final)',
  disputed: 'it is disputed and the team is resolving it',
  canceled: 'it is canceled (final)',
  payment_expired: 'its payment window ended (final)',
};

/** Each move in words ("Cannot mark this order sent: …", "Only the buyer can dispute this order."). */
export const DOES: Record<OrderEvent, string> = {
  'confirm-payment': 'confirm the payment of this order',
  'expire-payment': 'end the payment window of this order',
  'mark-delivered': 'mark this order sent',
  'mark-received': 'mark this order received',
  'mark-received-early': 'mark this order received before it is sent',
  dispute: 'dispute this order',
  cancel: 'cancel this order',
  'resolve-received': 'resolve this order as received',
  'resolve-canceled': 'resolve this order as canceled',
};

export const orderMachine = defineMachine<OrderMachineTypes>({
  name: 'order',
  initial: 'pending_payment',
  rows,
  refusal: (o, event) => `Cannot ${DOES[event]}: ${WHERE[o.status]}.`,
  history: (o, move) => {
    const data = move.data && Object.keys(move.data).length ? { data: move.data as Record<string, string> } : {};
    o.history = [...o.history, { transition: move.transition, from: move.from, to: move.to, actor: move.actor, at: move.at.toISOString(), ...data }];
  },
});

/** Who may take an event at all, for a refusal that names them ("Only the buyer can dispute an order."). */
export function whoMay(event: OrderEvent): OrderActor[] {
  return [...new Set(rows.filter((r) => r.event === event).flatMap((r) => r.who))];
}
