import { sessionProcedure } from '../../trpc.js';
import { checkout } from '@hm/domain/flows';
import { ZPlaceOrder, ZPlacedOrder } from '@hm/domain/orders';
import { TAG, partyBody } from './_shared.js';

export const placeOrder = sessionProcedure
  .meta({
    auth: 'session',
    successStatus: 201,
    problems: [409],
    requestExample: { listing_id: '0192d5e8-7b1c-7a3e-9f21-5c4b3a2d1e0f', quantity: 1, delivery: { method: 'pickup' } },
    openapi: {
      operationId: 'createOrder',
      method: 'POST',
      path: '/me/orders',
      tags: [TAG],
      summary: 'Place an order',
      description:
        'Reserves the stock and starts the payment: pay with `payment.client_secret` within 15 minutes, or the order becomes `payment_expired` and the item is released. A total of 0 (a voucher covers it) needs no payment: the order is `purchased` at once and `payment.client_secret` is empty. Priced exactly like the quote. `delivery.method` may be omitted when the listing offers one method; `delivery.option` defaults to the first shipping option; shipping needs `delivery.address` (422 at `body.delivery.address`). 409: not buyable now (your own listing, sold, reserved by someone else, delivery impossible), or you already have the marketplace\'s `pending_orders_per_buyer` orders awaiting payment (default 3: pay for one or let it expire first). 422: a voucher that does not apply (reason at `body.voucher_code`) and every other wrong field. 503: payments are unavailable; nothing was reserved.',
    },
  })
  .input(ZPlaceOrder)
  .output(ZPlacedOrder)
  .mutation(async ({ ctx, input }) => {
    const { order, clientSecret } = await checkout(ctx, input);
    return { order: await partyBody(ctx, order, 'buyer'), payment: { client_secret: clientSecret } };
  });
