import type { Order } from '@hm/db/entities';
import type { UserCommandContext } from '../../core/context.js';
import { ConflictError } from '../../core/errors.js';
import { findOrderFor, type Party } from './find-orders.js';

/**
 * PATCH /v1/me/orders/{id}/delivery: the seller adds or corrects the tracking number and carrier of
 * an order they marked sent (not a transition: the order stays `delivered`, its timers unchanged).
 * An empty string removes a value. Refusals are 409 saying why, as for moves.
 */
export function updateTracking(ctx: UserCommandContext, id: string, input: { tracking_number?: string; carrier?: string }): Promise<{ order: Order; party: Party }> {
  return ctx.em.transactional(async (em) => {
    const found = await findOrderFor({ ...ctx, em }, id, { lock: true });
    const o = found.order;
    if (found.party !== 'seller') throw new ConflictError('Only the seller can change the tracking of this order.');
    if (o.fulfilment !== 'seller') throw new ConflictError('The marketplace sends this order (the item is stored with it); the team gives its tracking.');
    if (o.status !== 'delivered') throw new ConflictError(`Tracking can be changed only while the order is marked sent and waiting for the buyer; it is ${o.status}.`);
    const delivery = { ...o.delivery };
    for (const key of ['tracking_number', 'carrier'] as const) {
      const v = input[key];
      if (v === undefined) continue;
      if (v === '') delete delivery[key];
      else delivery[key] = v;
    }
    o.delivery = delivery;
    o.updatedAt = ctx.clock.now();
    await em.flush();
    return found;
  });
}
