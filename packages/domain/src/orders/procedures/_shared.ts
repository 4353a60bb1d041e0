import type { Order } from '@hm/db/entities';
import type { UserContext } from '../../context.js';
import type { Party } from '../commands/find-orders.js';
import { toOrderBody } from '../order.mapper.js';

export const TAG = 'Orders';

/** An order as its buyer or seller sees it (available_transitions are theirs). */
export const partyBody = (ctx: UserContext, order: Order, party: Party) => toOrderBody(order, party, { em: ctx.em, marketplace: ctx.marketplace });
