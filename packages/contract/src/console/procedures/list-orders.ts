import { z } from 'zod';
import { ORDER_STATES, OrderSchema } from '@hm/db/entities';
import { payoutsOf } from '@hm/domain/payouts';
import { consoleProcedure } from '../../trpc.js';
import { toOrderConsoleBody } from '@hm/domain/orders';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

export const listOrdersProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({
      state: z.enum(ORDER_STATES).optional().describe('Only orders in this state.'),
      chargeback: z.boolean().optional().describe('Only orders with a chargeback (the buyer’s bank disputed the payment), also after the seller was paid.'),
      limit: z.number().int().min(1).max(1000).default(100).describe('At most this many (1..1000, default 100).'),
    }).describe("The marketplace's orders, newest first."),
  )
  .query(async ({ ctx, input }) => {
    const { marketplace, em } = await scoped(ctx, input.marketplace);
    const orders = await em.find(OrderSchema, { ...(input.state ? { status: input.state } : {}), ...(input.chargeback ? { chargeback: { $ne: null } } : {}) }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: input.limit });
    const payouts = await payoutsOf(em, orders.map((o) => o.id));
    return { items: orders.map((o) => toOrderConsoleBody(o, { em, marketplace }, payouts.get(o.id))) };
  });
