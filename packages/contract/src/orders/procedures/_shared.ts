import type { Order } from '@hm/db/entities';
import { payoutsOf } from '@hm/domain/payouts';
import type { UserContext } from '@hm/domain/core';
import type { Party } from '@hm/domain/orders';
import { toOrderBody } from '@hm/domain/orders';

export const TAG = 'Orders';

/** Orders as their buyer or seller sees them (available_transitions are theirs; the payout only on the seller's side). */
export async function partyBodies(ctx: UserContext, orders: Order[], party: (o: Order) => Party) {
  const byOrder = await payoutsOf(ctx.em, orders.filter((o) => party(o) === 'seller').map((o) => o.id));
  return orders.map((o) => toOrderBody(o, party(o), { em: ctx.em, marketplace: ctx.marketplace }, party(o) === 'seller' ? byOrder.get(o.id) : undefined));
}

/** An order as its buyer or seller sees it. */
export const partyBody = async (ctx: UserContext, order: Order, party: Party) => (await partyBodies(ctx, [order], () => party))[0]!;
