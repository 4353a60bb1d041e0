import { beforeAll, describe, expect, test } from 'vitest';
import { handlePaymentEvent } from '@hm/domain/payments';
import { paySeller, reverseTransfer } from '@hm/domain/payouts';
import { SHIPPING } from './orders.suite.js';
import { payoutsSuite } from './payouts.suite.js';

/**
 * Seller payouts against chargebacks and refunds: a dispute holds or takes back the payout, a refund
 * made outside the service, never paying a seller for money the buyer got back (before and after
 * the payout). The ledger adds up throughout.
 */
const { suite, transfers, json, person, moveAccount, readySeller, received, payoutOf, mismatchOf, ledgerOf, dispute, refundOutside } = payoutsSuite();
// the marketplace as the payout figures (payouts.e2e.test.ts) leave it: 10 % commission, storage fees after two free weeks
beforeAll(() => suite.h.console.marketplace.update({ marketplace: 'shop', settings: { commission_percent: 10, shipping: { ...SHIPPING, storage_fees: { small: 2900 }, free_storage_weeks: 2 } as never } }));

describe('chargebacks and outside refunds', () => {
  test('a dispute before payment holds the payout; lost after payment it is taken back from the seller’s transfer', async () => {
    const { shop } = suite;
    const seller = await readySeller(shop);
    const buyer = await person(shop, 'disputer');
    const listing = await suite.listing(shop, seller, { delivery: { pickup: true } });
    const id = await suite.purchased(shop, buyer, { listing_id: listing, delivery: { method: 'pickup' } });
    const opened = await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/dispute', { order_id: id, status: 'needs_response', reason: 'fraudulent' });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(json(opened).events.map((e: { type: string }) => e.type)).toEqual(['charge.dispute.created']);
    await suite.h.runJobs();
    const held = await suite.get(shop, seller, id);
    expect(held.chargeback).toEqual({ id: expect.stringMatching(/^dp_/), reason: 'fraudulent', status: 'needs_response' });
    expect(held.payout.status).toBe('held_for_chargeback');
    expect((await suite.get(shop, buyer, id)).chargeback.status).toBe('needs_response');
    await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/dispute', { order_id: id, status: 'under_review', reason: 'fraudulent' });
    await suite.h.runJobs();
    expect((await suite.get(shop, seller, id)).chargeback.status).toBe('under_review');
    // received while held: still not paid
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    expect((await payoutOf(shop, seller, id)).status).toBe('held_for_chargeback');

    const paidId = await received(shop, seller, await person(shop, 'afterwards'));
    expect((await payoutOf(shop, seller, paidId)).status).toBe('paid');
    const lost = await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/dispute', { order_id: paidId, status: 'lost', reason: 'product_not_received' });
    expect(json(lost).events.map((e: { type: string }) => e.type)).toEqual(['charge.dispute.closed']);
    await suite.h.runJobs();
    const after = await suite.get(shop, seller, paidId);
    expect(after.payout.status).toBe('paid');
    expect(after.chargeback).toMatchObject({ status: 'lost', reason: 'product_not_received' });
    // the lost chargeback is in the ledger and taken back from the seller's transfer (all of it: the
    // seller's share bears it first); the platform carries its commission; reconcile adds up
    const ledger = await ledgerOf(paidId);
    expect(ledger).toContainEqual(['chargeback', 100_000]);
    expect(ledger).toContainEqual(['transfer_reversal', 90_000]);
    expect(ledger).toContainEqual(['carried', 10_000]);
    expect(await mismatchOf(paidId)).toBeUndefined();
    // the one held before payment is open (the team's), not a mismatch
    expect(await mismatchOf(id)).toBeUndefined();
    const listed = await suite.h.console.orders.list({ marketplace: 'shop', chargeback: true });
    expect(listed.items.map((o) => o.id).sort()).toEqual([id, paidId].sort());
    // a closed dispute no longer moves; another marketplace's order is 404
    expect((await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/dispute', { order_id: paidId, status: 'won', reason: 'general' })).statusCode).toBe(409);
    expect((await suite.call(suite.own, undefined, 'POST', '/v1/test-helpers/payments/dispute', { order_id: id, status: 'won', reason: 'general' })).statusCode).toBe(404);
  });

  test('a dispute closed as won (or an inquiry closed without a chargeback) releases the held payout: pending until received, then paid', async () => {
    const { shop } = suite;
    const seller = await readySeller(shop);
    const dispute = (id: string, status: string) => suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/dispute', { order_id: id, status, reason: 'fraudulent' });
    // held before the order is received, won: back to pending, then paid when received
    const early = await suite.purchased(shop, await person(shop, 'winner'), { listing_id: await suite.listing(shop, seller, { delivery: { pickup: true } }), delivery: { method: 'pickup' } });
    await dispute(early, 'needs_response');
    await suite.h.runJobs();
    expect((await payoutOf(shop, seller, early)).status).toBe('held_for_chargeback');
    expect(json(await dispute(early, 'won')).events.map((e: { type: string }) => e.type)).toEqual(['charge.dispute.closed']);
    await suite.h.runJobs();
    expect((await payoutOf(shop, seller, early)).status).toBe('pending');
    expect((await suite.get(shop, seller, early)).chargeback.status).toBe('won');

    // held, received while held, then an inquiry closed without a chargeback: released and paid at once
    const buyer = await person(shop, 'inquirer');
    const late = await suite.purchased(shop, buyer, { listing_id: await suite.listing(shop, seller, { delivery: { pickup: true } }), delivery: { method: 'pickup' } });
    await dispute(late, 'warning_needs_response');
    await suite.h.runJobs();
    expect((await suite.move(shop, buyer, late, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    expect((await payoutOf(shop, seller, late)).status).toBe('held_for_chargeback');
    await dispute(late, 'warning_closed');
    await suite.h.runJobs();
    expect((await payoutOf(shop, seller, late)).status).toBe('paid');
    expect(await mismatchOf(late)).toBeUndefined();
    expect(await ledgerOf(late)).not.toContainEqual(['chargeback', 100_000]); // an inquiry withdraws nothing
  });

  test('a refund made outside the service sets refunded_outside; the service’s own refund does not', async () => {
    const { shop } = suite;
    const seller = await readySeller(shop);
    const buyer = await person(shop, 'refunded');
    const listing = await suite.listing(shop, seller, { delivery: { pickup: true } });
    const id = await suite.purchased(shop, buyer, { listing_id: listing, delivery: { method: 'pickup' } });
    const res = await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/refund', { order_id: id, amount: 3000 });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).events.map((e: { type: string }) => e.type)).toEqual(['charge.refunded']);
    await suite.h.runJobs();
    expect((await suite.get(shop, buyer, id)).refunded_outside).toBe(3000);
    await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/refund', { order_id: id, amount: 1000 });
    await suite.h.runJobs();
    expect((await suite.get(shop, seller, id)).refunded_outside).toBe(4000);
    expect((await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/refund', { order_id: id, amount: 96_001 })).statusCode).toBe(409);
    // received later: the seller is paid net of the refund, and the ledger adds up
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    expect(await payoutOf(shop, seller, id)).toMatchObject({ status: 'paid', amount: 86_000 });
    expect(await mismatchOf(id)).toBeUndefined();

    // an order that was never paid cannot be refunded
    const unpaid = await suite.placed(shop, buyer, { listing_id: await suite.listing(shop, seller, { delivery: { pickup: true } }), delivery: { method: 'pickup' } });
    expect((await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/refund', { order_id: unpaid.order.id, amount: 1 })).statusCode).toBe(409);
  });
});

describe('money rules: never pay a seller for money the buyer got back', () => {
  test('a full refund outside the service before received: the payout is paid 0, nothing is transferred, the ledger adds up', async () => {
    const { shop } = suite;
    const seller = await readySeller(shop);
    const buyer = await person(shop, 'fullrefund');
    const id = await suite.purchased(shop, buyer, { listing_id: await suite.listing(shop, seller, { delivery: { pickup: true } }), delivery: { method: 'pickup' } });
    await refundOutside(shop, id, 100_000);
    const before = transfers.calls;
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    expect(await payoutOf(shop, seller, id)).toMatchObject({ status: 'paid', amount: 0 });
    expect(transfers.calls).toBe(before);
    expect(await ledgerOf(id)).toEqual([
      ['carried', 10_000], // the commission the refund took back: the platform carries it
      ['charge', 100_000],
      ['commission', 10_000],
      ['marketplace_shipping', 0],
      ['refund', 100_000],
      ['storage_fee', 0],
      ['transfer', 0],
      ['voucher', 0],
    ]);
    expect(await mismatchOf(id)).toBeUndefined();
  });

  test('a partial refund exactly the seller’s share, and one a unit beyond it: paid 0 and the platform carries the unit', async () => {
    const { shop } = suite;
    const seller = await readySeller(shop);
    for (const [refund, paid, carried] of [[90_000, 0, 0], [90_001, 0, 1], [89_999, 1, 0]] as const) {
      const buyer = await person(shop, 'partial');
      const id = await suite.purchased(shop, buyer, { listing_id: await suite.listing(shop, seller, { delivery: { pickup: true } }), delivery: { method: 'pickup' } });
      await refundOutside(shop, id, refund);
      expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
      await suite.h.runJobs();
      expect(await payoutOf(shop, seller, id)).toMatchObject({ status: 'paid', amount: paid });
      expect((await ledgerOf(id)).filter(([k]) => k === 'carried')).toEqual(carried ? [['carried', carried]] : []);
      expect(await mismatchOf(id)).toBeUndefined();
    }
  });

  test('an account becoming ready pays net of a refund made while it waited', async () => {
    const { shop } = suite;
    const seller = await person(shop, 'waitingrefund');
    const buyer = await person(shop, 'waitingbuyer');
    const id = await received(shop, seller, buyer);
    expect((await payoutOf(shop, seller, id)).status).toBe('waiting_for_payout_details');
    await refundOutside(shop, id, 25_000);
    await suite.call(shop, seller, 'POST', '/v1/me/payouts/session', { country: 'SE' });
    await moveAccount(shop, seller, { status: 'ready' });
    expect(await payoutOf(shop, seller, id)).toMatchObject({ status: 'paid', amount: 65_000 });
    expect(await mismatchOf(id)).toBeUndefined();
  });

  test('a won dispute does not release a payout the buyer already got back; the reason stays the one it was opened with', async () => {
    const { shop } = suite;
    const seller = await readySeller(shop);
    const buyer = await person(shop, 'wonrefund');
    const id = await suite.purchased(shop, buyer, { listing_id: await suite.listing(shop, seller, { delivery: { pickup: true } }), delivery: { method: 'pickup' } });
    await dispute(shop, id, 'needs_response', 'product_not_received');
    await suite.h.runJobs();
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    expect((await payoutOf(shop, seller, id)).status).toBe('held_for_chargeback');
    await refundOutside(shop, id, 100_000);
    const before = transfers.calls;
    expect((await dispute(shop, id, 'won', 'fraudulent')).statusCode).toBe(200);
    await suite.h.runJobs();
    const order = await suite.get(shop, seller, id);
    expect(order.chargeback).toMatchObject({ status: 'won', reason: 'product_not_received' });
    expect(order.payout).toMatchObject({ status: 'paid', amount: 0 });
    expect(transfers.calls).toBe(before);
    // withdrawn, then reinstated: both in the ledger
    expect((await ledgerOf(id)).filter(([k]) => k.startsWith('chargeback'))).toEqual([['chargeback', 100_000], ['chargeback_reversal', 100_000]]);
    expect(await mismatchOf(id)).toBeUndefined();
  });

});

describe('money rules after the payout: taken back from the seller’s transfer', () => {
  const ctx = () => ({ ...suite.h.ports, orm: suite.h.orm, mode: 'test' as const });
  beforeAll(() => suite.h.console.marketplace.update({ marketplace: 'shop', settings: { commission_percent: 10 } }));
  const historyOf = async (id: string) => (await suite.h.orm.em.getConnection().execute<{ history: { transition: string; data?: Record<string, string> }[] }[]>(`select history from payouts where order_id = ?`, [id]))[0]!.history;

  test('a refund one unit short of the seller’s share after payout leaves the seller 1; one unit beyond: 0 and the platform carries 1', async () => {
    const { shop } = suite;
    const seller = await readySeller(shop);
    for (const [refund, reversed, carried] of [[89_999, 89_999, 0], [90_001, 90_000, 1]] as const) {
      const id = await received(shop, seller, await person(shop, 'edge'));
      await refundOutside(shop, id, refund);
      const rows = await ledgerOf(id);
      expect(rows.filter(([k]) => k === 'transfer_reversal')).toEqual([['transfer_reversal', reversed]]);
      expect(rows.filter(([k]) => k === 'carried')).toEqual(carried ? [['carried', carried]] : []);
      expect((await historyOf(id)).filter((h) => h.transition === 'reverse-transfer').map((h) => h.data!.amount)).toEqual([String(reversed)]);
      expect(await mismatchOf(id)).toBeUndefined();
      // the job again (a retry, a duplicate): nothing more is taken
      expect(await reverseTransfer(ctx(), { marketplaceId: shop.marketplace.id, orderId: id })).toMatch(/nothing to take back/);
      expect((await ledgerOf(id)).filter(([k]) => k === 'transfer_reversal')).toHaveLength(1);
    }
  });

  test('a refund arriving while the transfer is in flight: the transfer lands as asked, then the refund is taken back; reconcile adds up', async () => {
    const { shop } = suite;
    const seller = await readySeller(shop);
    const buyer = await person(shop, 'inflightrefund');
    const id = await suite.purchased(shop, buyer, { listing_id: await suite.listing(shop, seller, { delivery: { pickup: true } }), delivery: { method: 'pickup' } });
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    let open!: () => void;
    const started = new Promise<void>((resolve) => (transfers.gate = { started: resolve, open: new Promise<void>((r) => (open = r)) }));
    const paying = paySeller(ctx(), { marketplaceId: shop.marketplace.id, orderId: id });
    try {
      await started;
      const res = await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/refund', { order_id: id, amount: 25_000 });
      expect(res.statusCode, res.body).toBe(200);
      const [event] = await suite.h.orm.em.getConnection().execute<{ id: string }[]>(`select id from payment_events where type = 'charge.refunded' and order_id = ?`, [id]);
      expect(await handlePaymentEvent(ctx(), event!.id)).toMatch(/refunded outside the service 25000 SEK$/); // not paid yet: nothing to reverse
    } finally {
      transfers.gate = undefined;
      open();
    }
    expect(await paying).toContain(': paid 90000 SEK');
    await suite.h.runJobs();
    expect((await ledgerOf(id)).filter(([k]) => k === 'transfer' || k === 'transfer_reversal')).toEqual([['transfer', 90_000], ['transfer_reversal', 25_000]]);
    expect(await mismatchOf(id)).toBeUndefined();
  });

  test('a transfer whose outcome is unknown is asked for again as it was, though a refund came between; one refused is worked out again under another id', async () => {
    const { shop } = suite;
    const seller = await readySeller(shop);
    // unknown: the provider made it, the worker died before recording it; a refund arrives; the retry asks the same
    const buyer = await person(shop, 'unknownoutcome');
    const id = await suite.purchased(shop, buyer, { listing_id: await suite.listing(shop, seller, { delivery: { pickup: true } }), delivery: { method: 'pickup' } });
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    transfers.crashNext = true;
    await expect(paySeller(ctx(), { marketplaceId: shop.marketplace.id, orderId: id })).rejects.toThrow(/died after the provider paid/);
    await refundOutside(shop, id, 10_000); // runs the queued pay-seller too
    const asks = transfers.asks.filter((a) => a.orderId === id);
    expect(asks.length).toBeGreaterThanOrEqual(2);
    expect(new Set(asks.map((a) => `${a.id}/${a.amount}`)).size).toBe(1); // one id, one amount: never another transfer beside it
    expect(await payoutOf(shop, seller, id)).toMatchObject({ status: 'paid', amount: 90_000 });
    expect((await ledgerOf(id)).filter(([k]) => k === 'transfer_reversal')).toEqual([['transfer_reversal', 10_000]]);
    expect(await mismatchOf(id)).toBeUndefined();

    // refused for good (nothing made): the payout fails at once; a refund arrives; the team's retry asks for the new amount under another id
    const buyer2 = await person(shop, 'refusedfirst');
    const other = await suite.purchased(shop, buyer2, { listing_id: await suite.listing(shop, seller, { delivery: { pickup: true } }), delivery: { method: 'pickup' } });
    expect((await suite.move(shop, buyer2, other, 'mark-received-early')).statusCode).toBe(200);
    transfers.refuseNext = true;
    expect(await paySeller(ctx(), { marketplaceId: shop.marketplace.id, orderId: other })).toMatch(/payout failed, .*balance is too low/);
    expect(await payoutOf(shop, seller, other)).toMatchObject({ status: 'failed' });
    // the refund is handled before the team retries
    expect((await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/refund', { order_id: other, amount: 10_000 })).statusCode).toBe(200);
    const [refunded] = await suite.h.orm.em.getConnection().execute<{ id: string }[]>(`select id from payment_events where type = 'charge.refunded' and order_id = ?`, [other]);
    await handlePaymentEvent(ctx(), refunded!.id);
    expect(await suite.h.console.payouts.retry({ marketplace: shop.marketplace.slug, order: other })).toEqual({ order_id: other, status: 'pending' });
    await suite.h.runJobs();
    const [first, second] = transfers.asks.filter((a) => a.orderId === other);
    expect(first).toMatchObject({ amount: 90_000 });
    expect(second).toMatchObject({ amount: 80_000 });
    expect(second!.id).not.toBe(first!.id);
    expect(await payoutOf(shop, seller, other)).toMatchObject({ status: 'paid', amount: 80_000 });
    expect(await mismatchOf(other)).toBeUndefined();
  });
});

// last: its chargeback stays on the marketplace's orders (the tests above list them)
