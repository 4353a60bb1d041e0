import { describe, expect, test } from 'vitest';
import { handlePaymentEvent } from '@hm/domain/payments';
import { paySeller } from '@hm/domain/payouts';
import { SHIPPING, STOCKHOLM } from './orders.suite.js';
import { payoutsSuite } from './payouts.suite.js';

/**
 * Seller payouts over HTTP: payout setup statuses through the provider's events, the payout's
 * figures on the seller's side of an order, pay-seller (paid, waiting for details, never for a
 * canceled order, once however often it runs; the provider's transfer made with no lock held). Chargebacks, outside refunds and the money rules:
 * payouts-refunds.e2e.test.ts.
 */
const { suite, transfers, json, person, setup, moveAccount, readySeller, received, payoutOf, reconcile } = payoutsSuite();

describe('payout setup', () => {
  test('none → action_required with what is due → pending → ready, following the provider’s account events', async () => {
    const { shop } = suite;
    const s = await person(shop, 'onboarding');
    expect(await setup(shop, s)).toEqual({ status: 'none', due: [] });
    // the helper moves an account only once payout setup started
    const early = await suite.call(shop, s, 'POST', '/v1/test-helpers/payouts/account', { status: 'ready' });
    expect(early.statusCode).toBe(409);
    const first = await suite.call(shop, s, 'POST', '/v1/me/payouts/session', { country: 'SE', business_type: 'company' });
    expect(first.statusCode, first.body).toBe(200);
    expect(json(first).client_secret).toMatch(/^accs_secret__/);
    // a second session continues the same account (its country is not used again); a new secret each time
    const again = await suite.call(shop, s, 'POST', '/v1/me/payouts/session', { country: 'DE' });
    expect(json(again).client_secret).not.toBe(json(first).client_secret);
    expect(await setup(shop, s)).toEqual({ status: 'none', due: [] });

    const moved = await moveAccount(shop, s, { status: 'action_required', due: ['individual.dob.day', 'external_account'] });
    expect(moved.events).toEqual([{ id: expect.stringMatching(/^evt_/), type: 'account.updated' }]);
    expect(await setup(shop, s)).toEqual({ status: 'action_required', due: ['external_account', 'individual.dob.day'] });
    await moveAccount(shop, s, { status: 'pending' });
    expect(await setup(shop, s)).toEqual({ status: 'pending', due: [] });
    await moveAccount(shop, s, { status: 'ready' });
    expect(await setup(shop, s)).toEqual({ status: 'ready', due: [] });
    // another seller is untouched
    expect(await setup(shop, suite.seller)).toEqual({ status: 'none', due: [] });
  });

  test('two first sessions at once make one account at the provider', async () => {
    const { shop } = suite;
    const s = await person(shop, 'twice');
    const both = await Promise.all([1, 2].map(() => suite.call(shop, s, 'POST', '/v1/me/payouts/session', { country: 'SE' })));
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    const rows = await suite.h.orm.em.getConnection().execute<{ provider_account_id: string }[]>(`select provider_account_id from payout_accounts where user_id = ?`, [s.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.provider_account_id).toMatch(/^acct_/);
    await moveAccount(shop, s, { status: 'ready' });
    expect(await setup(shop, s)).toEqual({ status: 'ready', due: [] });
  });

  test('bad input lists every problem (the helper’s too); no session → 401', async () => {
    const { shop } = suite;
    const s = await person(shop, 'bad');
    const bad = await suite.call(shop, s, 'POST', '/v1/me/payouts/session', { country: 'sweden', business_type: 'llc', extra: 1 });
    expect(bad.statusCode).toBe(422);
    expect(json(bad).errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.business_type', 'body.country', 'body.extra']);
    expect((await suite.call(shop, undefined, 'GET', '/v1/me/payouts')).statusCode).toBe(401);
    expect((await suite.call(shop, undefined, 'POST', '/v1/me/payouts/session', { country: 'SE' })).statusCode).toBe(401);
    const badHelper = await suite.call(shop, s, 'POST', '/v1/test-helpers/payouts/account', { status: 'done', due: 'x' });
    expect(json(badHelper).errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.due', 'body.status']);
  });
});

describe('payout figures (seller’s side only)', () => {
  test('the marketplace’s commission, rounded half away from zero; the listing’s override; the buyer never sees the payout', async () => {
    const { shop, own } = suite;
    await suite.h.console.marketplace.update({ marketplace: 'shop', settings: { commission_percent: 10 } });
    const seller = await person(shop, 'figures');
    const buyer = await person(shop, 'buyer');
    const listing = await suite.listing(shop, seller, { price: { amount: 100_005, currency: 'SEK' }, delivery: { pickup: true } });
    const { order } = await suite.placed(shop, buyer, { listing_id: listing, delivery: { method: 'pickup' } });
    expect(order).not.toHaveProperty('payout'); // the buyer placed it
    const sellers = await suite.get(shop, seller, order.id);
    expect(sellers.payout).toEqual({ subtotal: 100_005, commission: 10_001, storage_fee: 0, storage_months: 0, amount: 90_004, currency: 'SEK', status: 'pending' });
    expect(await suite.get(shop, buyer, order.id)).not.toHaveProperty('payout');
    const buyerList = json(await suite.call(shop, buyer, 'GET', '/v1/me/orders'));
    expect(buyerList.items[0]).not.toHaveProperty('payout');
    const sellerList = json(await suite.call(shop, seller, 'GET', '/v1/me/orders?as=seller'));
    expect(sellerList.items[0].payout.amount).toBe(90_004);
    // anyone else: 404, and another marketplace's key: 404
    expect((await suite.call(shop, suite.buyer2, 'GET', `/v1/me/orders/${order.id}`)).statusCode).toBe(404);
    expect((await suite.call(own, suite.ownSeller, 'GET', `/v1/me/orders/${order.id}`)).statusCode).toBe(404);

    const special = await suite.listing(shop, seller, { price: { amount: 100_004, currency: 'SEK' }, delivery: { pickup: true } });
    await suite.h.console.listings.setCommission({ id: special, percent: 12.5 });
    const placed = await suite.placed(shop, buyer, { listing_id: special, delivery: { method: 'pickup' } });
    expect((await payoutOf(shop, seller, placed.order.id)).commission).toBe(12_501); // 12 500.5
  });

  test('seller-shipped: the shipping is the seller’s; vouchers are paid by the marketplace', async () => {
    const { own, ownBuyer } = suite;
    await suite.h.console.marketplace.update({ marketplace: 'own', settings: { commission_percent: 20 } });
    await suite.h.console.vouchers.create({ marketplace: 'own', voucher: { code: 'TENOFF', amount: 10_000, currency: 'SEK' } });
    const seller = await person(own, 'shipper');
    const listing = await suite.listing(own, seller, { price: { amount: 50_000, currency: 'SEK' } });
    const { order } = await suite.placed(own, ownBuyer, { listing_id: listing, delivery: { method: 'shipping', address: STOCKHOLM }, voucher_code: 'tenoff' });
    expect(order.line_items.map((l: { code: string; amount: number }) => [l.code, l.amount])).toEqual([
      ['item', 50_000],
      ['shipping', 9900],
      ['voucher', -10_000],
    ]);
    expect(order.total).toBe(49_900);
    expect(await payoutOf(own, seller, order.id)).toEqual({ subtotal: 59_900, commission: 10_000, storage_fee: 0, storage_months: 0, amount: 49_900, currency: 'SEK', status: 'pending' });
  });

  test('marketplace-shipped (stored): shipping is the marketplace’s; storage fees at the edges of the free weeks and of started months', async () => {
    const { shop } = suite;
    await suite.h.console.marketplace.update({ marketplace: 'shop', settings: { commission_percent: 10, shipping: { ...SHIPPING, storage_fees: { small: 2900 }, free_storage_weeks: 2 } as never } });
    const site = (await suite.h.console.sites.create({ marketplace: 'shop', site: { kind: 'warehouse', name: 'Store', line1: 'Lagerv. 3', postal_code: '12345', city: 'Huddinge', country: 'SE', buyer_pickup: false } })).site;
    const seller = await person(shop, 'storer');
    const storedAt = new Date(suite.h.clock.now());
    const listing = await suite.listing(shop, seller, { stock: 10 }, 'small');
    await suite.h.console.listings.custody({ id: listing, custody: 'stored', site: site.id });
    const freeEnd = storedAt.getTime() + 14 * 86_400_000;
    const at = async (t: number) => {
      suite.h.clock.set(new Date(t));
      // sessions end in the weeks this test skips: a buyer of the day, and the payout as the team sees it
      const { order } = await suite.placed(shop, await person(shop, 'storebuyer'), { listing_id: listing, delivery: { method: 'shipping', address: STOCKHOLM } });
      return { order, payout: (await suite.h.console.orders.get({ id: order.id })).order.payout };
    };
    try {
      const free = await at(freeEnd);
      expect(free.order.line_items.map((l: { code: string }) => l.code)).toEqual(['item', 'shipping']);
      // the marketplace sends it: its shipping (3900 to Stockholm) is not the seller's
      expect(free.payout).toEqual({ subtotal: 100_000, commission: 10_000, storage_fee: 0, storage_months: 0, amount: 90_000, currency: 'SEK', status: 'pending' });
      expect((await at(freeEnd + 1)).payout).toMatchObject({ storage_months: 1, storage_fee: 2900, amount: 87_100 });
      const monthLater = new Date(freeEnd);
      monthLater.setUTCMonth(monthLater.getUTCMonth() + 1);
      expect((await at(monthLater.getTime())).payout).toMatchObject({ storage_months: 1, storage_fee: 2900 });
      expect((await at(monthLater.getTime() + 1)).payout).toMatchObject({ storage_months: 2, storage_fee: 5800, amount: 84_200 });
    } finally {
      suite.h.clock.set(storedAt);
    }
  });
});

describe('paying sellers', () => {
  test('pending → paid when the order is received; the ledger adds up', async () => {
    const { shop } = suite;
    const seller = await readySeller(shop);
    const buyer = await person(shop, 'payer');
    const listing = await suite.listing(shop, seller, { delivery: { pickup: true } });
    const id = await suite.purchased(shop, buyer, { listing_id: listing, delivery: { method: 'pickup' } });
    expect((await payoutOf(shop, seller, id)).status).toBe('pending');
    await suite.h.runJobs();
    expect((await payoutOf(shop, seller, id)).status).toBe('pending'); // nothing pays before the order is received
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    const payout = await payoutOf(shop, seller, id);
    expect(payout).toMatchObject({ status: 'paid', amount: 90_000 });
    const consoleOrder = (await suite.h.console.orders.get({ id })).order;
    expect(consoleOrder.transfer).toEqual({ id: expect.stringMatching(/^tr_/), at: expect.any(String) });
    expect(await reconcile()).toMatchObject({ ok: true, mismatches: [], paid_twice: [] });
    // the ledger: what moved, in the order's currency; append-only, even for the database owner
    const db = suite.h.orm.em.getConnection();
    const ledger = await db.execute<{ kind: string; amount: string; currency: string }[]>(`select kind, amount, currency from ledger_entries where order_id = ? order by kind`, [id]);
    expect(ledger.map((r) => [r.kind, Number(r.amount), r.currency])).toEqual([
      ['charge', 100_000, 'SEK'],
      ['commission', 10_000, 'SEK'],
      ['marketplace_shipping', 0, 'SEK'],
      ['storage_fee', 0, 'SEK'],
      ['transfer', 90_000, 'SEK'],
      ['voucher', 0, 'SEK'],
    ]);
    await expect(db.execute(`update ledger_entries set amount = 0 where order_id = ?`, [id])).rejects.toThrow(/append-only/);
    await expect(db.execute(`delete from ledger_entries where order_id = ?`, [id])).rejects.toThrow(/append-only/);
  });

  test('waiting_for_payout_details → paid as soon as the seller’s account is ready', async () => {
    const { shop } = suite;
    const seller = await person(shop, 'late');
    const buyer = await person(shop, 'latebuyer');
    const id = await received(shop, seller, buyer);
    expect((await payoutOf(shop, seller, id)).status).toBe('waiting_for_payout_details');
    await suite.call(shop, seller, 'POST', '/v1/me/payouts/session', { country: 'SE' });
    await moveAccount(shop, seller, { status: 'action_required', due: ['external_account'] });
    expect((await payoutOf(shop, seller, id)).status).toBe('waiting_for_payout_details');
    await moveAccount(shop, seller, { status: 'ready' }); // handles account.updated, which queues pay-seller
    await suite.h.runJobs();
    expect((await payoutOf(shop, seller, id)).status).toBe('paid');
  });

  test('an order a voucher paid in full (nothing charged) still pays the seller, from the platform’s balance; the ledger adds up', async () => {
    const { shop } = suite;
    await suite.h.console.marketplace.update({ marketplace: 'shop', settings: { commission_percent: 10 } });
    await suite.h.console.vouchers.create({ marketplace: 'shop', voucher: { code: 'ALLFREE', percent: 100 } });
    const seller = await readySeller(shop);
    const buyer = await person(shop, 'freebie');
    const listing = await suite.listing(shop, seller, { delivery: { pickup: true } });
    const placed = await suite.place(shop, buyer, { listing_id: listing, delivery: { method: 'pickup' }, voucher_code: 'ALLFREE' });
    expect(placed.statusCode, placed.body).toBe(201);
    const id = json(placed).order.id as string;
    expect(json(placed).order).toMatchObject({ total: 0, state: 'purchased' });
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    expect(await payoutOf(shop, seller, id)).toMatchObject({ subtotal: 100_000, commission: 10_000, amount: 90_000, status: 'paid' });
    expect((await suite.h.console.orders.get({ id })).order.transfer).toEqual({ id: expect.stringMatching(/^tr_/), at: expect.any(String) });
    expect(await reconcile()).toMatchObject({ ok: true });
  });

  test('a canceled order pays nothing and shows no payout; its refund balances the ledger', async () => {
    const { shop } = suite;
    const seller = await readySeller(shop);
    const buyer = await person(shop, 'canceler');
    const listing = await suite.listing(shop, seller, { delivery: { pickup: true } });
    const id = await suite.purchased(shop, buyer, { listing_id: listing, delivery: { method: 'pickup' } });
    const before = transfers.calls;
    await suite.h.console.orders.transition({ id, transition: 'cancel' });
    await suite.h.runJobs();
    const order = await suite.get(shop, seller, id);
    expect(order.state).toBe('canceled');
    expect(order).not.toHaveProperty('payout');
    expect(transfers.calls).toBe(before);
    expect((await suite.h.console.orders.get({ id })).order.refund).toEqual({ id: expect.stringMatching(/^re_/), at: expect.any(String) });
    // a pay-seller run anyway (a stray job) changes nothing
    expect(await paySeller({ ...suite.h.ports, orm: suite.h.orm, mode: 'test' }, { marketplaceId: shop.marketplace.id, orderId: id })).toBe(`order ${id} skipped: the order is canceled`);
    expect(await reconcile()).toMatchObject({ ok: true });
  });

  test('pay-seller run twice, or again after a crash between the provider’s transfer and our commit, pays once', async () => {
    const { shop } = suite;
    const seller = await readySeller(shop);
    const buyer = await person(shop, 'crash');
    const listing = await suite.listing(shop, seller, { delivery: { pickup: true } });
    const id = await suite.purchased(shop, buyer, { listing_id: listing, delivery: { method: 'pickup' } });
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    const ctx = { ...suite.h.ports, orm: suite.h.orm, mode: 'test' as const };
    const before = transfers.calls;
    transfers.crashNext = true;
    await expect(paySeller(ctx, { marketplaceId: shop.marketplace.id, orderId: id })).rejects.toThrow(/died after the provider paid/);
    expect((await payoutOf(shop, seller, id)).status).toBe('pending'); // rolled back
    const [a, b] = await Promise.all([paySeller(ctx, { marketplaceId: shop.marketplace.id, orderId: id }), paySeller(ctx, { marketplaceId: shop.marketplace.id, orderId: id })]);
    expect([a, b].filter((r) => r.includes(': paid 90000 SEK')).length).toBe(1);
    expect([a, b].filter((r) => r.includes('skipped: paid already')).length).toBe(1);
    await suite.h.runJobs(); // the queued job too
    expect(transfers.calls - before).toBe(2); // the crashed call and one more, which the provider answered with the same transfer
    const consoleOrder = (await suite.h.console.orders.get({ id })).order;
    expect(a + b).toContain(consoleOrder.transfer!.id);
    const r = await reconcile();
    expect(r.paid_twice).toEqual([]);
    expect(r.ok).toBe(true);
  });
});

describe('paying without a lock held', () => {
  test('the provider’s transfer runs with no lock held: a chargeback handled meanwhile does not wait, and leaves the started payout to the team', async () => {
    const { shop } = suite;
    const seller = await readySeller(shop);
    const buyer = await person(shop, 'inflight');
    const listing = await suite.listing(shop, seller, { delivery: { pickup: true } });
    const id = await suite.purchased(shop, buyer, { listing_id: listing, delivery: { method: 'pickup' } });
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    const ctx = { ...suite.h.ports, orm: suite.h.orm, mode: 'test' as const };
    const before = transfers.calls;
    let open!: () => void;
    const started = new Promise<void>((resolve) => (transfers.gate = { started: resolve, open: new Promise<void>((r) => (open = r)) }));
    const paying = paySeller(ctx, { marketplaceId: shop.marketplace.id, orderId: id });
    try {
      await started; // the provider call is in flight
      const opened = await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/dispute', { order_id: id, status: 'needs_response', reason: 'fraudulent' });
      expect(opened.statusCode, opened.body).toBe(200);
      const [event] = await suite.h.orm.em.getConnection().execute<{ id: string }[]>(`select id from payment_events where type = 'charge.dispute.created' and order_id = ?`, [id]);
      const waited = new Promise<string>((resolve) => setTimeout(() => resolve('waited on the payout’s lock'), 5_000));
      expect(await Promise.race([handlePaymentEvent(ctx, event!.id), waited])).toMatch(/needs_response; payout was paid already: recorded for the team$/);
    } finally {
      transfers.gate = undefined;
      open();
    }
    expect(await paying).toContain(': paid ');
    await suite.h.runJobs(); // the queued job finds it paid
    expect((await payoutOf(shop, seller, id)).status).toBe('paid');
    expect(transfers.calls - before).toBe(1);
    expect((await reconcile()).paid_twice).toEqual([]);
  });
});
