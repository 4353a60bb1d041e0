import { sessionProcedure } from '../../trpc.js';
import { transitionOrder as transitionOrderCommand } from '@hm/domain/orders';
import { ZOrder, ZTransitionInput } from '@hm/domain/orders';
import { TAG, partyBody } from './_shared.js';

export const transitionOrder = sessionProcedure
  .meta({
    auth: 'session',
    problems: [409],
    requestExample: { data: { carrier: 'PostNord', tracking_number: '00370712345678901234' } },
    openapi: {
      operationId: 'transitionOrder',
      method: 'POST',
      path: '/me/orders/{id}/transitions/{transition}',
      tags: [TAG],
      summary: 'Move an order',
      description:
        'Take one of the order\'s `available_transitions`: `mark-delivered` (the seller; `data.tracking_number` and `data.carrier` appear in `order.delivery`), `mark-received`, `mark-received-early`, `dispute` (the buyer). `data` is kept in `history`. Anything else is 409 saying why.',
    },
  })
  .input(ZTransitionInput)
  .output(ZOrder)
  .mutation(async ({ ctx, input }) => {
    const { order, party } = await transitionOrderCommand(ctx, input.id, input.transition, input.data);
    return partyBody(ctx, order, party);
  });
