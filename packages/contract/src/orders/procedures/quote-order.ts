import { sessionProcedure } from '../../trpc.js';
import { ZPlaceOrder, ZQuote } from '@hm/domain/orders';
import { quoteOrder as quote } from '@hm/domain/flows';
import { TAG } from './_shared.js';

export const quoteOrder = sessionProcedure
  .meta({
    auth: 'session',
    problems: [409],
    requestExample: { listing_id: '0192d5e8-7b1c-7a3e-9f21-5c4b3a2d1e0f', quantity: 1, delivery: { method: 'pickup' }, voucher_code: 'WELCOME10' },
    openapi: {
      operationId: 'quoteOrder',
      method: 'POST',
      path: '/me/orders/quote',
      tags: [TAG],
      summary: 'Price an order without placing it',
      description:
        'The same fields as placing, priced by the same code: show `line_items` and `total` as returned. Without an address, shipping priced by the marketplace shows `shipping_address_needed` (placing then fails). 409 when the listing is not buyable now (your own, sold, reserved, delivery impossible); 422 lists every wrong field, a voucher that does not apply with its reason at `body.voucher_code`.',
    },
  })
  .input(ZPlaceOrder)
  .output(ZQuote)
  .mutation(async ({ ctx, input }) => {
    const priced = await quote(ctx, input);
    return { currency: priced.currency, total: priced.total, line_items: priced.lineItems };
  });
