import { z } from 'zod';
import { keyProcedure } from '../../trpc.js';
import { ConflictError, NotFoundError } from '@hm/domain/core';
import { recordPaymentEvents } from '@hm/domain/payments';
import { PaymentError } from '@hm/domain/core';

export const ZConfirmTestPaymentInput = z.strictObject({
  client_secret: z.string().min(1).max(200).meta({ description: 'The `payment.client_secret` returned when the order was placed.' }),
  outcome: z.enum(['succeeded', 'failed']).meta({ description: '`succeeded`: the buyer pays; `failed`: the card is declined (the buyer may try again).' }),
});

export const confirmTestPayment = keyProcedure
  .meta({
    auth: 'secret',
    problems: [409],
    requestExample: { client_secret: 'pi_test_3Qk8_secret_Zx91', outcome: 'succeeded' },
    openapi: {
      operationId: 'confirmTestPayment',
      method: 'POST',
      path: '/test-helpers/payments/confirm',
      tags: ['Test helpers'],
      summary: 'Pay or decline a payment (test mode)',
      description:
        "Acts as the buyer and the payment provider would for the payment behind `client_secret`. The outcome reaches the order the way a real one does: as the provider's event, stored once and handled in the background (poll the order while it is `pending_payment`). With the local sandbox the events it emitted are listed; with Stripe the payment is confirmed with a test card and Stripe's webhook brings the events, so the list is empty. 404 for a client secret of no payment of this marketplace; 409 once the payment has succeeded or was canceled. Test mode only (404 in live mode).",
    },
  })
  .input(ZConfirmTestPaymentInput)
  .output(z.object({ events: z.array(z.object({ id: z.string(), type: z.string() })).meta({ description: "The provider's events this caused, as stored." }) }))
  .mutation(async ({ ctx, input }) => {
    if (ctx.mode !== 'test') throw new NotFoundError('Test helpers exist in test mode only; this endpoint');
    let events;
    try {
      events = await ctx.payments.confirmForTest(input.client_secret, input.outcome, ctx.marketplace.id);
    } catch (e) {
      // an outage stays a PaymentError: the shared mapping answers 503 with Retry-After
      if (e instanceof PaymentError && !e.retryable) throw new ConflictError(`The payment provider refused: ${e.message}.`);
      throw e;
    }
    if (events === null) throw new NotFoundError('A payment with this client secret');
    const recorded = await recordPaymentEvents(ctx, events);
    return { events: recorded.map((e) => ({ id: e.id, type: e.type })) };
  });
