import { z } from 'zod';
import { router } from '../../trpc.js';
import { ZOrderFilter, getOrderOp, listOrdersOp, perform, transitionOrderOp } from '../../console/operations.js';
import { ZTransitionFields } from '../../console/procedures/transition-order.js';
import { operatorProcedure } from '../procedure.js';
import { openapi, read, write, ZId } from '../meta.js';
import { ZAnyObject } from '../schemas.js';

export const orders = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/orders', 'Orders', 'Orders', 'Newest first; `state=disputed`, `chargeback=true`, `buyer`/`seller` (a user id or email address), `listing` (id) …')))
    .input(z.strictObject({ state: ZOrderFilter.state, buyer: ZOrderFilter.buyer, seller: ZOrderFilter.seller, listing: ZOrderFilter.listing, chargeback: z.stringbool().meta({ description: ZOrderFilter.chargeback.description, override: { type: 'boolean' } }).optional(), limit: z.coerce.number().int().min(1).max(1000).default(100).describe('1..1000, default 100.') }))
    .output(z.object({ items: z.array(ZAnyObject) }))
    .query(({ ctx, input }) => perform(listOrdersOp, ctx.scope, input)),
  get: operatorProcedure
    .meta(read(openapi('GET', '/orders/{id}', 'Orders', 'An order', 'With its payment, refund, booking and payout, and `ledger`: the order’s ledger rows (read-only), oldest first.')))
    .input(ZId)
    .output(z.object({ order: ZAnyObject }))
    .query(({ ctx, input }) => perform(getOrderOp, ctx.scope, input)),
  transition: operatorProcedure
    .meta(write(openapi('POST', '/orders/{id}/transitions', 'Orders', 'Move an order', 'The team’s moves: `cancel` (a paid order never sent: refunded), `resolve-received`, `resolve-canceled` (refunded), `mark-delivered`. 409 when the order’s state does not allow it.'), { problems: [403, 409], requestExample: { transition: 'resolve-received' } }))
    .input(z.strictObject({ id: z.uuid(), ...ZTransitionFields }))
    .output(z.object({ order: ZAnyObject }))
    .mutation(({ ctx, input }) => perform(transitionOrderOp, ctx.scope, input)),
});
