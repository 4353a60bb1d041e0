import { sessionProcedure } from '../../trpc.js';
import { updateTracking } from '@hm/domain/orders';
import { ZOrder, ZUpdateDelivery } from '@hm/domain/orders';
import { TAG, partyBody } from './_shared.js';

export const updateOrderDelivery = sessionProcedure
  .meta({
    auth: 'session',
    problems: [409],
    requestExample: { tracking_number: '00370712345678901234', carrier: 'PostNord' },
    openapi: {
      operationId: 'updateOrderDelivery',
      method: 'PATCH',
      path: '/me/orders/{id}/delivery',
      tags: [TAG],
      summary: "Add or correct an order's tracking",
      description:
        'The seller adds or corrects `tracking_number` and `carrier` in `order.delivery` after marking the order sent (`delivered`), for example when it was sent without tracking first. Not a transition: the state and its timers do not change. An empty string removes the value. The buyer, another state or an order the marketplace sends: 409 saying why.',
    },
  })
  .input(ZUpdateDelivery)
  .output(ZOrder)
  .mutation(async ({ ctx, input }) => {
    const { order, party } = await updateTracking(ctx, input.id, input);
    return partyBody(ctx, order, party);
  });
