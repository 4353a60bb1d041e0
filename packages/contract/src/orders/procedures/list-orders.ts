import { z } from 'zod';
import { sessionProcedure } from '../../trpc.js';
import { listOrders as listOrdersCommand } from '@hm/domain/orders';
import { ZListOrders, ZOrder } from '@hm/domain/orders';
import { TAG, partyBodies } from './_shared.js';

export const listOrders = sessionProcedure
  .meta({
    auth: 'session',
    openapi: { operationId: 'listMyOrders', method: 'GET', path: '/me/orders', tags: [TAG], summary: "The signed-in user's orders", description: 'As buyer (default) or seller, optionally in one `state`, newest first; offset-paged (a page shorter than `limit` is the last).' },
  })
  .input(ZListOrders)
  .output(z.object({ items: z.array(ZOrder) }).meta({ id: 'OrderList' }))
  .query(async ({ ctx, input }) => ({ items: await partyBodies(ctx, await listOrdersCommand(ctx, input), () => input.as) }));
