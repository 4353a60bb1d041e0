import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { operatorTransition } from '@hm/domain/orders';
import { ORDER_EVENTS } from '@hm/domain/orders';
import { ZTransitionData } from '@hm/domain/orders';
import { toOrderConsoleBody } from '@hm/domain/orders';
import { payoutsOf } from '@hm/domain/payouts';

export const transitionOrderProcedure = consoleProcedure
  .input(
    z
      .strictObject({
        id: z.uuid().describe('Order id.'),
        transition: z.enum(ORDER_EVENTS).describe('The team’s moves: cancel (a paid order never sent: refunded), resolve-received, resolve-canceled (refunded), mark-delivered (marketplace fulfilment).'),
        data: ZTransitionData.optional().describe('JSON object of strings kept in history, e.g. {"tracking_number": "…", "carrier": "…"} for mark-delivered.'),
      })
      .describe('Move an order as the marketplace team.'),
  )
  .mutation(async ({ ctx, input }) => {
    const { order, scope } = await operatorTransition(ctx, input.id, input.transition, input.data);
    const payouts = await payoutsOf(scope.em, [order.id]);
    return { order: toOrderConsoleBody(order, { em: scope.em, marketplace: scope.marketplace }, payouts.get(order.id)) };
  });
