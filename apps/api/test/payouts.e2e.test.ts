import { beforeAll, describe, expect, test } from 'vitest';
import { handlePaymentEvent, PaymentError } from '@hm/domain/payments';
import { paySeller, reverseTransfer } from '@hm/domain/payouts';
import { ordersSuite, SHIPPING, STOCKHOLM, type Market, type Person } from './orders.suite.js';
import { signUp } from './harness.js';

/**
 * Seller payouts over HTTP: payout setup statuses through the provider's events, the payout's
 * figures on the seller's side of an order, pay-seller (paid, waiting for details, never for a
 * canceled order, once however often it runs), chargebacks, outside refunds and the ledger.
 */
let transferCalls = 0;
let crashAfterTransfer = false;
/** when set: the next transfer is refused by the provider (nothing is made) */
let refuseNextTransfer = false;
/** every transfer asked for: our id (the provider's idempotency key) and amount */
const transferAsks: { id: string; orderId: string; amount: number }[] = [];
/** when set: the transfer says it started, then waits for the gate (a slow provider) */
let transferGate: { started: () => void; open: Promise<void> } | undefined;
const suite = ordersSuite({
  ports: (local) => ({
    payments: {
      ...local.payments,
      // a transfer the provider made, followed by a crash before our commit (when asked)
      async transfer(req) {
        transferCalls++;
        transferAsks.push({ id: req.id, orderId: req.orderId, amount: req.amount });
        if (refuseNextTransfer) {
          refuseNextTransfer = false;
          throw new PaymentError('the platform balance is too low (test)', 'refused', 'balance_insufficient');
        }
        if (transferGate) {
          transferGate.started();
          await transferGate.open;
        }
        const made = await local.payments.transfer(req);
        if (crashAfterTransfer) {
          crashAfterTransfer = false;
          throw new Error('the worker died after the provider paid');
        }
        return made;
      },
    },
  }),
});

const json = (res: { json(): unknown }) => res.json() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let n = 0;
async function person(m: Market, name: string): Promise<Person> {
  const email = `${name}-${++n}@example.com`;
  const { token, user } = await signUp(suite.h, m.secret, { email, first_name: name, locale: 'en' });
  return { token, id: user.id, email };
}
const setup = async (m: Market, who: Person) => json(await suite.call(m, who, 'GET', '/v1/me/payouts'));
async function moveAccount(m: Market, who: Person, body: Record<string, unknown>) {
  const res = await suite.call(m, who, 'POST', '/v1/test-helpers/payouts/account', body);
  expect(res.statusCode, res.body).toBe(200);
  await suite.h.runJobs();
  return json(res);
}
async function readySeller(m: Market, name = 'seller'): Promise<Person> {
  const who = await person(m, name);
  expect((await suite.call(m, who, 'POST', '/v1/me/payouts/session', { country: 'SE' })).statusCode).toBe(200);
  await moveAccount(m, who, { status: 'ready' });
  expect(await setup(m, who)).toEqual({ status: 'ready', due: [] });
  return who;
}
/** An order received by its buyer (pickup), with the jobs it caused run. */
async function received(m: Market, seller: Person, buyer: Person, content: Record<string, unknown> = {}, order: Record<string, unknown> = {}) {
  const listing = await suite.listing(m, seller, { delivery: { pickup: true }, ...content });
  const id = await suite.purchased(m, buyer, { listing_id: listing, delivery: { method: 'pickup' }, ...order });
  expect((await suite.move(m, buyer, id, 'mark-received-early')).statusCode).toBe(200);
  await suite.h.runJobs();
  return id;
}
const payoutOf = async (m: Market, seller: Person, id: string) => (await suite.get(m, seller, id)).payout;
const reconcile = () => suite.h.console.payouts.reconcile({ marketplace: 'shop' });
/** what reconcile says of one order: undefined when it adds up */
const mismatchOf = async (id: string) => (await reconcile()).mismatches.find((m) => m.order_id === id);
const ledgerOf = async (id: string) =>
  (await suite.h.orm.em.getConnection().execute<{ kind: string; amount: string }[]>(`select kind, amount from ledger_entries where order_id = ? order by kind, amount`, [id])).map((r): [string, number] => [r.kind, Number(r.amount)]);
const dispute = (m: Market, id: string, status: string, reason = 'fraudulent') => suite.call(m, undefined, 'POST', '/v1/test-helpers/payments/dispute', { order_id: id, status, reason });
const refundOutside = async (m: Market, id: string, amount: number) => {
  const res = await suite.call(m, undefined, 'POST', '/v1/test-helpers/payments/refund', { order_id: id, amount });
  expect(res.statusCode, res.body).toBe(200);
  await suite.h.runJobs();
};

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
    const before = transferCalls;
    await suite.h.console.orders.transition({ id, transition: 'cancel' });
    await suite.h.runJobs();
    const order = await suite.get(shop, seller, id);
    expect(order.state).toBe('canceled');
    expect(order).not.toHaveProperty('payout');
    expect(transferCalls).toBe(before);
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
    const before = transferCalls;
    crashAfterTransfer = true;
    await expect(paySeller(ctx, { marketplaceId: shop.marketplace.id, orderId: id })).rejects.toThrow(/died after the provider paid/);
    expect((await payoutOf(shop, seller, id)).status).toBe('pending'); // rolled back
    const [a, b] = await Promise.all([paySeller(ctx, { marketplaceId: shop.marketplace.id, orderId: id }), paySeller(ctx, { marketplaceId: shop.marketplace.id, orderId: id })]);
    expect([a, b].filter((r) => r.includes(': paid 90000 SEK')).length).toBe(1);
    expect([a, b].filter((r) => r.includes('skipped: paid already')).length).toBe(1);
    await suite.h.runJobs(); // the queued job too
    expect(transferCalls - before).toBe(2); // the crashed call and one more, which the provider answered with the same transfer
    const consoleOrder = (await suite.h.console.orders.get({ id })).order;
    expect(a + b).toContain(consoleOrder.transfer!.id);
    const r = await reconcile();
    expect(r.paid_twice).toEqual([]);
    expect(r.ok).toBe(true);
  });
});

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
    const before = transferCalls;
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    await suite.h.runJobs();
    expect(await payoutOf(shop, seller, id)).toMatchObject({ status: 'paid', amount: 0 });
    expect(transferCalls).toBe(before);
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
    const before = transferCalls;
    expect((await dispute(shop, id, 'won', 'fraudulent')).statusCode).toBe(200);
    await suite.h.runJobs();
    const order = await suite.get(shop, seller, id);
    expect(order.chargeback).toMatchObject({ status: 'won', reason: 'product_not_received' });
    expect(order.payout).toMatchObject({ status: 'paid', amount: 0 });
    expect(transferCalls).toBe(before);
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
    const started = new Promise<void>((resolve) => (transferGate = { started: resolve, open: new Promise<void>((r) => (open = r)) }));
    const paying = paySeller(ctx(), { marketplaceId: shop.marketplace.id, orderId: id });
    try {
      await started;
      const res = await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/refund', { order_id: id, amount: 25_000 });
      expect(res.statusCode, res.body).toBe(200);
      const [event] = await suite.h.orm.em.getConnection().execute<{ id: string }[]>(`select id from payment_events where type = 'charge.refunded' and order_id = ?`, [id]);
      expect(await handlePaymentEvent(ctx(), event!.id)).toMatch(/refunded outside the service 25000 SEK$/); // not paid yet: nothing to reverse
    } finally {
      transferGate = undefined;
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
    crashAfterTransfer = true;
    await expect(paySeller(ctx(), { marketplaceId: shop.marketplace.id, orderId: id })).rejects.toThrow(/died after the provider paid/);
    await refundOutside(shop, id, 10_000); // runs the queued pay-seller too
    const asks = transferAsks.filter((a) => a.orderId === id);
    expect(asks.length).toBeGreaterThanOrEqual(2);
    expect(new Set(asks.map((a) => `${a.id}/${a.amount}`)).size).toBe(1); // one id, one amount: never another transfer beside it
    expect(await payoutOf(shop, seller, id)).toMatchObject({ status: 'paid', amount: 90_000 });
    expect((await ledgerOf(id)).filter(([k]) => k === 'transfer_reversal')).toEqual([['transfer_reversal', 10_000]]);
    expect(await mismatchOf(id)).toBeUndefined();

    // refused for good (nothing made): the payout fails at once; a refund arrives; the team's retry asks for the new amount under another id
    const buyer2 = await person(shop, 'refusedfirst');
    const other = await suite.purchased(shop, buyer2, { listing_id: await suite.listing(shop, seller, { delivery: { pickup: true } }), delivery: { method: 'pickup' } });
    expect((await suite.move(shop, buyer2, other, 'mark-received-early')).statusCode).toBe(200);
    refuseNextTransfer = true;
    expect(await paySeller(ctx(), { marketplaceId: shop.marketplace.id, orderId: other })).toMatch(/payout failed, .*balance is too low/);
    expect(await payoutOf(shop, seller, other)).toMatchObject({ status: 'failed' });
    // the refund is handled before the team retries
    expect((await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/refund', { order_id: other, amount: 10_000 })).statusCode).toBe(200);
    const [refunded] = await suite.h.orm.em.getConnection().execute<{ id: string }[]>(`select id from payment_events where type = 'charge.refunded' and order_id = ?`, [other]);
    await handlePaymentEvent(ctx(), refunded!.id);
    expect(await suite.h.console.payouts.retry({ marketplace: shop.marketplace.slug, order: other })).toEqual({ order_id: other, status: 'pending' });
    await suite.h.runJobs();
    const [first, second] = transferAsks.filter((a) => a.orderId === other);
    expect(first).toMatchObject({ amount: 90_000 });
    expect(second).toMatchObject({ amount: 80_000 });
    expect(second!.id).not.toBe(first!.id);
    expect(await payoutOf(shop, seller, other)).toMatchObject({ status: 'paid', amount: 80_000 });
    expect(await mismatchOf(other)).toBeUndefined();
  });
});

// last: its chargeback stays on the marketplace's orders (the tests above list them)
describe('paying without a lock held', () => {
  test('the provider’s transfer runs with no lock held: a chargeback handled meanwhile does not wait, and leaves the started payout to the team', async () => {
    const { shop } = suite;
    const seller = await readySeller(shop);
    const buyer = await person(shop, 'inflight');
    const listing = await suite.listing(shop, seller, { delivery: { pickup: true } });
    const id = await suite.purchased(shop, buyer, { listing_id: listing, delivery: { method: 'pickup' } });
    expect((await suite.move(shop, buyer, id, 'mark-received-early')).statusCode).toBe(200);
    const ctx = { ...suite.h.ports, orm: suite.h.orm, mode: 'test' as const };
    const before = transferCalls;
    let open!: () => void;
    const started = new Promise<void>((resolve) => (transferGate = { started: resolve, open: new Promise<void>((r) => (open = r)) }));
    const paying = paySeller(ctx, { marketplaceId: shop.marketplace.id, orderId: id });
    try {
      await started; // the provider call is in flight
      const opened = await suite.call(shop, undefined, 'POST', '/v1/test-helpers/payments/dispute', { order_id: id, status: 'needs_response', reason: 'fraudulent' });
      expect(opened.statusCode, opened.body).toBe(200);
      const [event] = await suite.h.orm.em.getConnection().execute<{ id: string }[]>(`select id from payment_events where type = 'charge.dispute.created' and order_id = ?`, [id]);
      const waited = new Promise<string>((resolve) => setTimeout(() => resolve('waited on the payout’s lock'), 5_000));
      expect(await Promise.race([handlePaymentEvent(ctx, event!.id), waited])).toMatch(/needs_response; payout was paid already: recorded for the team$/);
    } finally {
      transferGate = undefined;
      open();
    }
    expect(await paying).toContain(': paid ');
    await suite.h.runJobs(); // the queued job finds it paid
    expect((await payoutOf(shop, seller, id)).status).toBe('paid');
    expect(transferCalls - before).toBe(1);
    expect((await reconcile()).paid_twice).toEqual([]);
  });
});
