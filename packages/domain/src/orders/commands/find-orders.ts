import { OrderSchema, type Order } from '@hm/db/entities';
import { LockMode } from '@mikro-orm/core';
import type { UserCommandContext } from '../../core/context.js';
import { NotFoundError } from '../../core/errors.js';
import type { OrderActor } from '../order.machine.js';

export type Party = Extract<OrderActor, 'buyer' | 'seller'>;

/**
 * An order of the signed-in user, as its buyer or its seller, locked for the rest of the
 * transaction when asked. Anyone else's (and another marketplace's) is 404, like a missing one.
 */
export async function findOrderFor(ctx: UserCommandContext, id: string, opts: { lock?: boolean } = {}): Promise<{ order: Order; party: Party }> {
  const order = await ctx.em.findOne(OrderSchema, { id, $or: [{ buyerId: ctx.user.id }, { sellerId: ctx.user.id }] }, opts.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {});
  if (!order) throw new NotFoundError('This order');
  return { order, party: order.buyerId === ctx.user.id ? 'buyer' : 'seller' };
}

/** GET /v1/me/orders: the user's orders as buyer (default) or seller, optionally in one state, newest first, offset-paged. */
export function listOrders(ctx: UserCommandContext, input: { as: Party; state?: Order['status']; limit: number; offset: number }): Promise<Order[]> {
  const mine = input.as === 'seller' ? { sellerId: ctx.user.id } : { buyerId: ctx.user.id };
  return ctx.em.find(OrderSchema, { ...mine, ...(input.state ? { status: input.state } : {}) }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: input.limit, offset: input.offset });
}
