import { z } from 'zod';
import { OrderSchema, PayoutAccountSchema } from '@hm/db/entities';
import { keyProcedure, sessionProcedure } from '../../trpc.js';
import type { KeyContext } from '@hm/domain/core';
import { ConflictError, NotFoundError } from '@hm/domain/core';
import { recordPaymentEvents } from '@hm/domain/payments';
import { PaymentError, type PaymentEvent } from '@hm/domain/core';
import { ZId } from '@hm/domain/core';

/**
 * Test helpers for payouts (test mode only; 404 in live): each acts as the payment provider would
 * and brings its events down the one path provider events take (stored once, handled by a job).
 */
const TAG = 'Test helpers';
const ZEvents = z.object({ events: z.array(z.object({ id: z.string(), type: z.string() })).meta({ description: "The provider's events this caused, as stored (none with Stripe, whose webhook brings them)." }) });

async function emit(ctx: KeyContext, make: () => Promise<PaymentEvent[]>) {
  if (ctx.mode !== 'test') throw new NotFoundError('Test helpers exist in test mode only; this endpoint');
  let events;
  try {
    events = await make();
  } catch (e) {
    if (e instanceof PaymentError && !e.retryable) throw new ConflictError(`The payment provider refused: ${e.message}.`);
    throw e;
  }
  const recorded = await recordPaymentEvents(ctx, events);
  return { events: recorded.map((e) => ({ id: e.id, type: e.type })) };
}

/** The order of this marketplace, paid through the provider (404 for another marketplace's or none). */
async function paidOrder(ctx: KeyContext, id: string) {
  if (ctx.mode !== 'test') throw new NotFoundError('Test helpers exist in test mode only; this endpoint');
  const order = await ctx.em.findOne(OrderSchema, { id });
  if (!order) throw new NotFoundError('This order');
  if (!order.paymentId || order.paymentProvider !== ctx.payments.name) throw new ConflictError('This order has no payment with this deployment’s payment provider.');
  return { ...order, paymentId: order.paymentId };
}

export const moveTestPayoutAccount = sessionProcedure
  .meta({
    auth: 'session',
    problems: [409],
    requestExample: { status: 'action_required', due: ['external_account'] },
    openapi: {
      operationId: 'setTestPayoutAccount',
      method: 'POST',
      path: '/test-helpers/payouts/account',
      tags: [TAG],
      summary: "Move the signed-in seller's payout account (test mode)",
      description:
        "Acts as the payment provider would while the seller onboards: the sandbox account moves to `status` (with `due` as its currently due requirements for `action_required`) and its `account.updated` event reaches the service the way a real one does (handled in the background; then `GET /v1/me/payouts` says so). Start payout setup first (`POST /v1/me/payouts/session`), else 409. With Stripe: 409 (Stripe moves accounts itself). Test mode only (404 in live mode).",
    },
  })
  .input(
    z.strictObject({
      status: z.enum(['action_required', 'pending', 'ready']),
      due: z.array(z.string().min(1).max(100)).max(50).default([]).meta({ description: 'Requirement names currently due (action_required); `external_account` when empty.' }),
    }),
  )
  .output(ZEvents)
  .mutation(async ({ ctx, input }) => {
    if (ctx.mode !== 'test') throw new NotFoundError('Test helpers exist in test mode only; this endpoint');
    const account = await ctx.em.findOne(PayoutAccountSchema, { userId: ctx.user.id });
    if (!account?.providerAccountId) throw new ConflictError('You have not started payout setup: call POST /v1/me/payouts/session first.');
    return emit(ctx, () => ctx.payments.updateAccountForTest(account.providerAccountId!, input));
  });

export const disputeTestPayment = keyProcedure
  .meta({
    auth: 'secret',
    problems: [409],
    requestExample: { order_id: '0192d5f1-2c3d-7e4f-8a9b-0c1d2e3f4a5b', status: 'needs_response', reason: 'product_not_received' },
    openapi: {
      operationId: 'disputeTestPayment',
      method: 'POST',
      path: '/test-helpers/payments/dispute',
      tags: [TAG],
      summary: "The buyer's bank disputes an order's payment (test mode)",
      description:
        "Opens a dispute on the order's payment, or moves it (`status` won, lost or warning_closed closes it), as the provider would: `charge.dispute.created/updated/closed` reaches the service like a real one and sets `order.chargeback`; an unpaid payout is held, and released when the dispute closes as won or warning_closed. 404 for an order of another marketplace; 409 for an unpaid order, a closed dispute, or with Stripe. Test mode only (404 in live mode).",
    },
  })
  .input(
    z.strictObject({
      order_id: ZId,
      status: z.enum(['warning_needs_response', 'warning_under_review', 'warning_closed', 'needs_response', 'under_review', 'won', 'lost']).default('needs_response'),
      reason: z.enum(['bank_cannot_process', 'credit_not_processed', 'customer_initiated', 'debit_not_authorized', 'duplicate', 'fraudulent', 'general', 'incorrect_account_details', 'insufficient_funds', 'product_not_received', 'product_unacceptable', 'subscription_canceled', 'unrecognized']).default('fraudulent'),
    }),
  )
  .output(ZEvents)
  .mutation(async ({ ctx, input }) => {
    const order = await paidOrder(ctx, input.order_id);
    return emit(ctx, () => ctx.payments.disputeForTest(order.paymentId, { status: input.status, reason: input.reason }));
  });

export const refundTestPayment = keyProcedure
  .meta({
    auth: 'secret',
    problems: [409],
    requestExample: { order_id: '0192d5f1-2c3d-7e4f-8a9b-0c1d2e3f4a5b', amount: 50000 },
    openapi: {
      operationId: 'refundTestPayment',
      method: 'POST',
      path: '/test-helpers/payments/refund',
      tags: [TAG],
      summary: "Refund an order's payment outside the service (test mode)",
      description:
        "Refunds `amount` of the order's payment at the provider, as someone using the provider's dashboard would: `charge.refunded` reaches the service and the order's `refunded_outside` grows. 404 for an order of another marketplace; 409 for an unpaid order or more than is left. Test mode only (404 in live mode).",
    },
  })
  .input(z.strictObject({ order_id: ZId, amount: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).meta({ description: "Minor units of the order's currency." }) }))
  .output(ZEvents)
  .mutation(async ({ ctx, input }) => {
    const order = await paidOrder(ctx, input.order_id);
    return emit(ctx, () => ctx.payments.refundForTest(order.paymentId, input.amount));
  });
