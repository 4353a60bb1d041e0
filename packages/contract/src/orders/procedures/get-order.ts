import { sessionProcedure } from '../../trpc.js';
import { findOrderFor } from '@hm/domain/orders';
import { ZOrder, ZOrderRef } from '@hm/domain/orders';
import { TAG, partyBody } from './_shared.js';

export const getOrder = sessionProcedure
  .meta({
    auth: 'session',
    openapi: { operationId: 'getMyOrder', method: 'GET', path: '/me/orders/{id}', tags: [TAG], summary: 'An order', description: "For its buyer or its seller (anyone else: 404). Poll it while `pending_payment`: the payment provider's confirmation moves it to `purchased` in the background." },
  })
  .input(ZOrderRef)
  .output(ZOrder)
  .query(async ({ ctx, input }) => {
    const { order, party } = await findOrderFor(ctx, input.id);
    return partyBody(ctx, order, party);
  });
