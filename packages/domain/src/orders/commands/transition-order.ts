import { MarketplaceSchema, OrderSchema, type Order } from '@hm/db/entities';
import { crossTenantEm, tenantEm } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import type { Context, UserCommandContext } from '../../core/context.js';
import { ConflictError, NotFoundError } from '../../core/errors.js';
import { DOES, whoMay, type OrderActor, type OrderEvent } from '../order.machine.js';
import { findOrderFor, type Party } from './find-orders.js';
import { moveOrder } from './move-order.js';

const WHO: Record<OrderActor, string> = { buyer: 'the buyer', seller: 'the seller', operator: 'the marketplace team', system: 'the service itself (automatically)' };

/** A refusal that names who may take the move, for a caller no row names (409, as any move not open to them). */
function notYours(event: OrderEvent): ConflictError {
  return new ConflictError(`Only ${whoMay(event).map((a) => WHO[a]).join(' or ')} can ${DOES[event]}.`);
}

/** One move of one order by an actor, the order locked; refusals are 409 saying why. */
async function moveLocked(em: UserCommandContext['em'], ctx: Pick<UserCommandContext, 'marketplace' | 'clock'>, o: Order, event: OrderEvent, actor: OrderActor, data?: Record<string, string>) {
  if (!whoMay(event).includes(actor)) throw notYours(event);
  await moveOrder(o, event, actor, { em, marketplace: ctx.marketplace, now: ctx.clock.now(), data });
  await em.flush();
}

/**
 * POST /v1/me/orders/{id}/transitions/{transition}: the buyer or seller takes a move open to them
 * (the same table `available_transitions` is computed from); anything else is 409 saying why.
 */
export function transitionOrder(ctx: UserCommandContext, id: string, event: OrderEvent, data?: Record<string, string>): Promise<{ order: Order; party: Party }> {
  return ctx.em.transactional(async (em) => {
    const found = await findOrderFor({ ...ctx, em }, id, { lock: true });
    await moveLocked(em, ctx, found.order, event, found.party, data);
    return found;
  });
}

/** An order by id alone, for the console: its marketplace is found from it. */
export async function byOrder(ctx: Context, id: string, within?: string) {
  const found = await crossTenantEm(ctx.orm).findOne(OrderSchema, { id }, { filters: false });
  if (!found || (within !== undefined && found.marketplaceId !== within)) throw new NotFoundError('This order');
  const marketplace = await crossTenantEm(ctx.orm).findOneOrFail(MarketplaceSchema, { id: found.marketplaceId });
  return { marketplace, em: tenantEm(ctx.orm, marketplace.id) };
}

/** The team's move (console `orders transition`): cancel, resolve a dispute, mark sent for marketplace fulfilment. */
export async function operatorTransition(ctx: Context, id: string, event: OrderEvent, data?: Record<string, string>, within?: string): Promise<{ order: Order; scope: Awaited<ReturnType<typeof byOrder>> }> {
  const scope = await byOrder(ctx, id, within);
  const order = await scope.em.transactional(async (em) => {
    const o = await em.findOneOrFail(OrderSchema, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    await moveLocked(em, { marketplace: scope.marketplace, clock: ctx.clock }, o, event, 'operator', data);
    return o;
  });
  return { order, scope };
}
