import { z } from 'zod';
import { OrderSchema } from '@hm/db/entities';
import { payoutsOf } from '@hm/domain/payouts';
import { consoleProcedure } from '../../trpc.js';
import { byOrder } from '@hm/domain/orders';
import { toOrderConsoleBody } from '@hm/domain/orders';

export const getOrderProcedure = consoleProcedure
  .input(z.strictObject({ id: z.uuid().describe('Order id.') }).describe('An order in any state, with its payment, refund and booking.'))
  .query(async ({ ctx, input }) => {
    const { marketplace, em } = await byOrder(ctx, input.id);
    const payouts = await payoutsOf(em, [input.id]);
    return { order: toOrderConsoleBody(await em.findOneOrFail(OrderSchema, { id: input.id }), { em, marketplace }, payouts.get(input.id)) };
  });
