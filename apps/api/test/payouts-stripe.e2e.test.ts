import { describe, expect, test } from 'vitest';
import { handlePaymentEvent } from '@hm/domain/payments';
import { paySeller } from '@hm/domain/payouts';
import { TRPCError } from '@trpc/server';
import { toProblem } from '@hm/contract/trpc';
import { emailsTo } from './harness.js';
import { books } from './payouts.suite.js';
import type { Market, Person } from './orders.suite.js';
import { ACCOUNT_READY, stripeOrdersSuite } from './stripe-suite.js';

/**
 * Payouts through Stripe end to end: the real `stripe` package against the local Stripe-speaking
 * server, whose signed webhooks reach this API on a port. Onboarding arrives as account.updated, a
 * received order is paid by a Transfer from its charge, a dispute holds an unpaid payout.
 */
const { stripe, suite, dashboard, paymentOf } = await stripeOrdersSuite('payouts');
const { mismatchOf, ledgerOf } = books(suite);

/** Stripe's webhook deliveries answered, then the jobs they caused (and the jobs those caused) run. */
async function delivered() {
  const deliveries = await stripe.settled();
  expect(deliveries.every((d) => d.status === 200)).toBe(true);
  await suite.h.runJobs();
  await suite.h.runJobs();
}

async function purchased(m: Market, seller: Person, buyer: Person): Promise<string> {
  const listing = await suite.listing(m, seller, { delivery: { pickup: true } });
  const { order, secret } = await suite.placed(m, buyer, { listing_id: listing, delivery: { method: 'pickup' } });
  const res = await suite.h.request({ method: 'POST', url: '/v1/test-helpers/payments/confirm', key: m.secret, payload: { client_secret: secret, outcome: 'succeeded' } });
  expect(res.statusCode, res.body).toBe(200);
  await delivered();
  expect((await suite.get(m, buyer, order.id)).state).toBe('purchased');
  return order.id;
}

describe('payouts with Stripe', () => {
  test('onboarding by account.updated; a received order is paid by a Transfer from its charge; a dispute holds an unpaid payout, winning it pays', async () => {
    const { shop, seller, buyer } = suite;
    await suite.h.console.marketplace.update({ marketplace: 'shop', settings: { commission_percent: 15 } });
    const session = await suite.call(shop, seller, 'POST', '/v1/me/payouts/session', { country: 'SE' });
    expect(session.statusCode, session.body).toBe(200);
    const account = stripe.accountSessions.at(-1)!.account as string;
    stripe.updateAccount(account, ACCOUNT_READY);
    await delivered();
    expect((await suite.call(shop, seller, 'GET', '/v1/me/payouts')).json()).toEqual({ status: 'ready', due: [] });

    const id = await purchased(shop, seller, buyer);
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    const payout = (await suite.get(shop, seller, id)).payout;
    expect(payout).toMatchObject({ subtotal: 100_000, commission: 15_000, amount: 85_000, status: 'paid' });
    const paymentId = await paymentOf(id);
    expect(stripe.transfers.at(-1)).toMatchObject({ amount: 85_000, currency: 'sek', destination: account, transfer_group: id, source_transaction: stripe.paymentIntent(paymentId)!.latest_charge });
    const transfers = stripe.transfers.length;

    // a dispute Stripe opens names only the payment: it finds its order and holds the unpaid payout
    const other = await purchased(shop, seller, suite.buyer2);
    const otherPayment = await paymentOf(other);
    stripe.emit('charge.dispute.created', { id: 'dp_stripe_1', object: 'dispute', payment_intent: otherPayment, charge: stripe.paymentIntent(otherPayment)!.latest_charge, reason: 'product_not_received', status: 'needs_response', amount: 100_000, currency: 'sek' });
    await delivered();
    const held = await suite.get(shop, seller, other);
    expect(held.chargeback).toEqual({ id: 'dp_stripe_1', reason: 'product_not_received', status: 'needs_response' });
    expect(held.payout.status).toBe('held_for_chargeback');
    expect((await suite.move(shop, suite.buyer2, other, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    expect((await suite.get(shop, seller, other)).payout.status).toBe('held_for_chargeback');
    expect(stripe.transfers.length).toBe(transfers);
    expect(await suite.h.console.payouts.reconcile({ marketplace: 'shop' })).toMatchObject({ ok: true, checked: 1, open: 1 });

    // Stripe closes it as won: the payout is released and paid by a Transfer; an older update
    // delivered after the closing event neither reopens the chargeback nor holds the payout again
    const charge = stripe.paymentIntent(otherPayment)!.latest_charge;
    stripe.emit('charge.dispute.closed', { id: 'dp_stripe_1', object: 'dispute', payment_intent: otherPayment, charge, reason: 'product_not_received', status: 'won', amount: 100_000, currency: 'sek' });
    await delivered();
    await suite.h.runJobs();
    stripe.emit('charge.dispute.updated', { id: 'dp_stripe_1', object: 'dispute', payment_intent: otherPayment, charge, reason: 'product_not_received', status: 'under_review', amount: 100_000, currency: 'sek' });
    await delivered();
    await suite.h.runJobs();
    const released = await suite.get(shop, seller, other);
    expect(released.chargeback).toEqual({ id: 'dp_stripe_1', reason: 'product_not_received', status: 'won' });
    expect(released.payout.status).toBe('paid');
    expect(stripe.transfers.length).toBe(transfers + 1);
    expect(stripe.transfers.at(-1)).toMatchObject({ amount: 85_000, destination: account, transfer_group: other });
    expect(await suite.h.console.payouts.reconcile({ marketplace: 'shop' })).toMatchObject({ ok: true, open: 0 });

    // the helpers that only the sandbox can play: 409 with Stripe
    expect((await suite.call(shop, seller, 'POST', '/v1/test-helpers/payouts/account', { status: 'ready' })).statusCode).toBe(409);
    expect((await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/dispute', { order_id: id })).statusCode).toBe(409);
  });

  test('money rules with Stripe: a refund made in the dashboard before received pays the seller net of it (a full one: no Transfer); a dispute lost after payout is taken back from the seller’s transfer and the ledger adds up', async () => {
    const { shop, seller, buyer } = suite;
    const refundedIn = async (id: string, amount: number) => {
      await dashboard.refund({ id: `dashboard-${id}`, paymentId: await paymentOf(id), amount });
      await delivered();
    };
    const transfers = stripe.transfers.length;
    const full = await purchased(shop, seller, buyer);
    await refundedIn(full, 100_000);
    expect((await suite.get(shop, seller, full)).refunded_outside).toBe(100_000);
    expect((await suite.move(shop, buyer, full, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    expect((await suite.get(shop, seller, full)).payout).toMatchObject({ status: 'paid', amount: 0 });
    expect(stripe.transfers.length).toBe(transfers);
    expect(await mismatchOf(full)).toBeUndefined();

    const partial = await purchased(shop, seller, suite.buyer2);
    await refundedIn(partial, 30_000);
    expect((await suite.move(shop, suite.buyer2, partial, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    expect((await suite.get(shop, seller, partial)).payout).toMatchObject({ status: 'paid', amount: 55_000 });
    expect(stripe.transfers.at(-1)).toMatchObject({ amount: 55_000, transfer_group: partial });
    expect(await mismatchOf(partial)).toBeUndefined();

    const payment = await paymentOf(partial);
    const charge = stripe.paymentIntent(payment)!.latest_charge;
    stripe.emit('charge.dispute.closed', { id: 'dp_stripe_lost', object: 'dispute', payment_intent: payment, charge, reason: 'fraudulent', status: 'lost', amount: 70_000, currency: 'sek', balance_transactions: [{ amount: -70_000, fee: 1500 }] });
    await delivered();
    // lost after the payout: the seller's transfer is reversed (all 55 000 left of it: the seller's share bears it first), Stripe's
    // transfer.reversed writes the same ledger row once, the platform carries the rest; reconcile adds up, the dispute fee included
    await delivered();
    const reversed = stripe.transfers.find((t) => t.transfer_group === partial)!;
    expect(reversed).toMatchObject({ amount: 55_000, amount_reversed: 55_000, reversed: true });
    const ledger = await ledgerOf(partial);
    expect(ledger.filter(([k]) => k === 'transfer_reversal' || k === 'carried' || k === 'dispute_fee')).toEqual([['carried', 15_000], ['dispute_fee', 1500], ['transfer_reversal', 55_000]]);
    expect(await mismatchOf(partial)).toBeUndefined();
  });
});

const ctx = () => ({ ...suite.h.ports, orm: suite.h.orm, mode: 'test' as const });

describe('money after the payout with Stripe (signed deliveries)', () => {
  test('a refund in the dashboard after the payout: a Transfer Reversal of the seller’s share, transfer.reversed recorded once; a reversal made in the dashboard is named by reconcile', async () => {
    const { shop, seller, buyer } = suite;
    const id = await purchased(shop, seller, buyer);
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    expect((await suite.get(shop, seller, id)).payout).toMatchObject({ status: 'paid', amount: 85_000 });
    await dashboard.refund({ id: `dashboard-after-${id}`, paymentId: await paymentOf(id), amount: 20_000 });
    await delivered(); // charge.refunded → reverse-transfer → Stripe's transfer.reversed
    await delivered();
    const transfer = stripe.transfers.find((t) => t.transfer_group === id)!;
    expect(transfer).toMatchObject({ amount: 85_000, amount_reversed: 20_000 });
    expect((await ledgerOf(id)).filter(([k]) => k === 'transfer_reversal')).toEqual([['transfer_reversal', 20_000]]);
    const [handled] = await suite.h.orm.em.getConnection().execute<{ outcome: string }[]>(`select outcome from payment_events where type = 'transfer.reversed' and order_id = ?`, [id]);
    expect(handled!.outcome).toMatch(/reversed 20000 SEK; 0 new ledger row/);
    expect(await mismatchOf(id)).toBeUndefined();
    // the team reverses more in the dashboard: the event's new reversal is in the ledger, and reconcile names it
    await dashboard.reverseTransfer({ id: `dashboard-${id}`, marketplaceId: shop.marketplace.id, orderId: id, transferId: String(transfer.id), amount: 5000 });
    await delivered();
    expect((await ledgerOf(id)).filter(([k]) => k === 'transfer_reversal')).toEqual([['transfer_reversal', 5000], ['transfer_reversal', 20_000]]);
    expect(await mismatchOf(id)).toMatchObject({ why: expect.stringMatching(/transfer reversed beyond/) });
  });

  test('a transfer Stripe refused, then a refund: the payout fails at once; the team’s retry asks for the new amount under a new idempotency key (no idempotency error) and pays once', async () => {
    const { shop, seller } = suite;
    const buyer = suite.buyer2;
    const id = await purchased(shop, seller, buyer);
    stripe.refuseNext('/v1/transfers', 'balance_insufficient');
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    // a refusal for good: the payout is failed at once (no job retry), its amount is no longer pinned
    expect(await paySeller(ctx(), { marketplaceId: shop.marketplace.id, orderId: id })).toContain(': payout failed, platform_balance_insufficient');
    expect((await suite.get(shop, seller, id)).payout).toMatchObject({ status: 'failed', failure_reason: 'platform_balance_insufficient' });
    await dashboard.refund({ id: `dashboard-between-${id}`, paymentId: await paymentOf(id), amount: 10_000 });
    await stripe.settled();
    const [refunded] = await suite.h.orm.em.getConnection().execute<{ id: string }[]>(`select id from payment_events where type = 'charge.refunded' and order_id = ?`, [id]);
    await handlePaymentEvent(ctx(), refunded!.id);
    expect(await suite.h.console.payouts.retry({ marketplace: 'shop', order: id })).toEqual({ order_id: id, status: 'pending' });
    expect(await paySeller(ctx(), { marketplaceId: shop.marketplace.id, orderId: id })).toContain(': paid 75000 SEK');
    await suite.h.runJobs();
    expect(stripe.transfers.filter((t) => t.transfer_group === id).map((t) => t.amount)).toEqual([75_000]);
    expect(stripe.requests.filter((r) => r.path === '/v1/transfers' && r.method === 'POST' && r.params.transfer_group === id).map((r) => [r.idempotencyKey, r.status])).toEqual([
      [`transfer-${id}-85000`, 400],
      [`transfer-${id}-75000-retry1`, 200],
    ]);
    expect(await mismatchOf(id)).toBeUndefined();
  });

  test('refund.failed and charge.refund.updated (failed) of one refund: one refund_failed row, the refund no longer counts against the seller; the ledger adds up once paid', async () => {
    const { shop, seller } = suite;
    const buyer = suite.buyer2;
    await suite.h.console.marketplace.update({ marketplace: 'shop', settings: { alert_email: 'refunds-team@example.com' } });
    const id = await purchased(shop, seller, buyer);
    const payment = await paymentOf(id);
    const { providerId: refundId } = await dashboard.refund({ id: `dashboard-fails-${id}`, paymentId: payment, amount: 20_000 });
    await delivered();
    expect((await suite.get(shop, seller, id)).refunded_outside).toBe(20_000);
    const failed = { id: refundId, object: 'refund', amount: 20_000, currency: 'sek', payment_intent: payment, status: 'failed', failure_reason: 'expired_or_canceled_card' };
    stripe.emit('refund.failed', failed);
    stripe.emit('charge.refund.updated', failed);
    await delivered();
    expect((await ledgerOf(id)).filter(([k]) => k === 'refund' || k === 'refund_failed')).toEqual([['refund', 20_000], ['refund_failed', 20_000]]);
    // the team is told once (both events of the failure are one), naming the order and the refund
    const alerts = await emailsTo(suite.h, shop.secret, 'refunds-team@example.com');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.subject).toContain(`A refund failed: order ${id}`);
    expect(alerts[0]!.text).toContain(refundId);
    expect((await suite.get(shop, seller, id)).refunded_outside).toBeUndefined();
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    expect((await suite.get(shop, seller, id)).payout).toMatchObject({ status: 'paid', amount: 85_000 });
    expect(await mismatchOf(id)).toBeUndefined();
  });

  test('payout.failed on a seller’s connected account: the seller is emailed in their language to fix their bank details; an unknown account is ignored', async () => {
    const { seller } = suite;
    const account = stripe.accountSessions.at(0)!.account as string;
    const before = await suite.h.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int as n from emails where template = 'payout_failed'`);
    stripe.emit('payout.failed', { id: 'po_failed_1', object: 'payout', amount: 85_000, currency: 'sek', status: 'failed', failure_code: 'account_closed' }, { account });
    stripe.emit('payout.failed', { id: 'po_failed_2', object: 'payout', amount: 100, currency: 'sek', status: 'failed', failure_code: 'account_closed' }, { account: 'acct_not_ours' });
    await delivered();
    const rows = await suite.h.orm.em.getConnection().execute<{ to: string; locale: string; subject: string; text: string }[]>(`select "to", locale, subject, text from emails where template = 'payout_failed' order by created_at`);
    expect(rows.length - before[0]!.n).toBe(1);
    expect(rows.at(-1)).toMatchObject({ to: seller.email });
    expect(rows.at(-1)!.text).toContain('/account/payouts');
    const outcomes = await suite.h.orm.em.getConnection().execute<{ outcome: string | null; marketplace_id: string | null }[]>(`select outcome, marketplace_id from payment_events where type = 'payout.failed' order by provider_event_id`);
    expect(outcomes.map((o) => o.marketplace_id === null)).toContain(true); // not ours: stored and ignored
    expect(outcomes.some((o) => /seller is emailed/.test(o.outcome ?? ''))).toBe(true);
    // payouts reconcile lists it for the team (the platform's books are not affected)
    const r = await suite.h.console.payouts.reconcile({ marketplace: 'shop' });
    expect(r.failed_bank_payouts).toEqual([{ payout_id: 'po_failed_1', account, seller_id: seller.id, amount: 85_000, currency: 'SEK', failure_code: 'account_closed', at: expect.any(String) }]);
  });

  test('a transfer Stripe refuses for good fails the payout at once (no retries), with its reason, an email to the team and the console’s list; the team’s retry pays it under a new key', async () => {
    const { shop, seller, buyer } = suite;
    await suite.h.console.marketplace.update({ marketplace: 'shop', settings: { alert_email: 'team@example.com' } });
    const id = await purchased(shop, seller, buyer);
    stripe.failNext(1, 400, { on: 'POST /v1/transfers', code: 'balance_insufficient', message: 'You have insufficient available funds in your Stripe account.' });
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    expect((await suite.get(shop, seller, id)).payout).toMatchObject({ status: 'failed', failure_reason: 'platform_balance_insufficient' });
    // the job is done, not waiting for a retry
    const jobs = await suite.h.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int as n from graphile_worker.jobs where key = ?`, [`pay-seller:${id}`]);
    expect(jobs[0]!.n).toBe(0);
    const { items } = await suite.h.console.payouts.failed({ marketplace: 'shop' });
    expect(items).toEqual([expect.objectContaining({ order_id: id, reason: 'platform_balance_insufficient', detail: expect.stringContaining('insufficient available funds'), currency: 'SEK' })]);
    const alerts = await emailsTo(suite.h, shop.secret, 'team@example.com');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.subject).toContain(`order ${id}`);
    expect(alerts[0]!.text).toContain(`payouts retry --marketplace shop --order ${id}`);
    // its money is still moving: open, not a mismatch
    const before = await suite.h.console.payouts.reconcile({ marketplace: 'shop' });
    expect(before.mismatches.find((m) => m.order_id === id)).toBeUndefined();

    // the team tops up the balance and retries: a new idempotency key (the refusal is kept under the old one), one transfer
    const transfers = stripe.transfers.length;
    expect(await suite.h.console.payouts.retry({ marketplace: 'shop', order: id })).toEqual({ order_id: id, status: 'pending' });
    await suite.h.runJobs();
    const paid = await suite.get(shop, seller, id);
    expect(paid.payout.status).toBe('paid');
    expect(paid.payout.failure_reason).toBeUndefined();
    expect(stripe.transfers.length).toBe(transfers + 1);
    expect(stripe.requests.filter((r) => r.path === '/v1/transfers' && r.method === 'POST' && r.params.transfer_group === id).map((r) => [r.idempotencyKey, r.status])).toEqual([
      [`transfer-${id}-85000`, 400],
      [`transfer-${id}-85000-retry1`, 200],
    ]);
    expect((await suite.h.console.payouts.failed({ marketplace: 'shop' })).items).toEqual([]);
    const after = await suite.h.console.payouts.reconcile({ marketplace: 'shop' });
    expect([after.open, after.checked]).toEqual([before.open - 1, before.checked + 1]);
    expect(after.mismatches.find((m) => m.order_id === id)).toBeUndefined();
    // a paid payout cannot be retried: 409 saying why
    const again = await suite.h.console.payouts.retry({ marketplace: 'shop', order: id }).catch((e: unknown) => e);
    expect(toProblem(again as TRPCError, undefined, {})).toMatchObject({ status: 409, code: 'conflict', detail: 'Cannot retry this payout: it is paid.' });
  });

  test('a 500 from Stripe on the transfer: the job retries on its schedule and pays once, under the next key, not 24 hours later', async () => {
    const { shop, seller, buyer } = suite;
    const id = await purchased(shop, seller, buyer);
    const transfers = stripe.transfers.length;
    stripe.failNext(1, 500, { on: 'POST /v1/transfers' });
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    expect((await suite.get(shop, seller, id)).payout.status).toBe('pending');
    // graphile-worker's next attempt, brought forward
    await suite.h.orm.em.getConnection().execute(`update graphile_worker._private_jobs set run_at = now() where key = ?`, [`pay-seller:${id}`]);
    await suite.h.runJobs();
    expect((await suite.get(shop, seller, id)).payout.status).toBe('paid');
    expect(stripe.transfers.length).toBe(transfers + 1);
    expect(stripe.requests.filter((r) => r.path === '/v1/transfers' && r.method === 'POST' && r.params.transfer_group === id).map((r) => [r.idempotencyKey, r.status, r.replayed])).toEqual([
      [`transfer-${id}-85000`, 500, false],
      [`transfer-${id}-85000`, 500, true],
      [`transfer-${id}-85000~2`, 200, false],
    ]);
  });

  test('the marketplace’s payout_service_agreement reaches Stripe for a seller at home; a seller abroad is recipient whatever it says', async () => {
    const { shop, buyer, buyer2 } = suite;
    const agreementOf = () => (stripe.account(stripe.accountSessions.at(-1)!.account as string)!.tos_acceptance as { service_agreement: string }).service_agreement;
    await suite.h.console.marketplace.update({ marketplace: 'shop', settings: { payout_service_agreement: 'recipient' } });
    expect((await suite.h.console.marketplace.get({ marketplace: 'shop' })).marketplace).toMatchObject({ payout_service_agreement: 'recipient' });
    expect((await suite.call(shop, buyer, 'POST', '/v1/me/payouts/session', { country: 'SE' })).statusCode).toBe(200);
    expect(agreementOf()).toBe('recipient');
    await suite.h.console.marketplace.update({ marketplace: 'shop', settings: { payout_service_agreement: 'full' } });
    expect((await suite.call(shop, buyer2, 'POST', '/v1/me/payouts/session', { country: 'DE' })).statusCode).toBe(200);
    expect(agreementOf()).toBe('recipient');
  });
});
