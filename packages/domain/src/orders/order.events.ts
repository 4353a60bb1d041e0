import type { Marketplace, Order } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { appendEvent } from '../core/events.js';
import type { Effect } from '../core/state-machine.js';
import type { OrderMachineTypes } from './order.machine.js';
import { toOrderBody } from './order.mapper.js';

/**
 * The orders' events, in one place: `order.created` when an order is placed, `order.updated` on
 * every move by the table (the move's effect, so none is left out), with `previous_attributes.state`.
 * The object is the order as its buyer sees it (the seller's payout figures are the seller's).
 */

export async function announceOrderCreated(em: EntityManager, marketplace: Marketplace, o: Order, at: Date): Promise<void> {
  await appendEvent(em, { type: 'order.created', object: toOrderBody(o, 'buyer', { em, marketplace }), at });
}

/** The last effect of every order move (after its timers). */
export const announceOrderMove: Effect<OrderMachineTypes> = ({ entity, move, ctx }) =>
  appendEvent(ctx.em, { type: 'order.updated', object: toOrderBody(entity, 'buyer', ctx), previous: { state: move.from }, at: move.at }).then(() => undefined);
