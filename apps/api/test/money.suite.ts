import { beforeAll, describe, expect, test } from 'vitest';
import { signUp } from './harness.js';
import type { OrdersSuite, Person } from './orders.suite.js';

/**
 * The money rules (README "Money rules"), one set of scenarios run against both payment adapters:
 * the sandbox (money-sandbox.e2e.test.ts) and Stripe through its real SDK and signed webhooks
 * (money-stripe.e2e.test.ts). Each scenario ends with `payouts reconcile` adding up for its order
 * (or counting it open while the team holds it). Order of 100 000 SEK, commission 10 %: the
 * seller's payout is 90 000.
 */
export interface MoneyDriver {
  suite: OrdersSuite;
  /** the seller finished onboarding: the provider reports their account ready (its event handled) */
  onboarded(seller: Person): Promise<void>;
  /** a refund made at the provider outside the service, its event handled */
  refundOutside(orderId: string, amount: number): Promise<void>;
  /** the buyer's bank disputes the payment, or the dispute moves; its event handled */
  dispute(orderId: string, status: 'needs_response' | 'won' | 'lost'): Promise<void>;
  /** what the provider says was transferred to the seller for the order, less what was reversed */
  keptBySeller(orderId: string): Promise<number>;
  /** the provider's events delivered and the jobs they cause run */
  settle(): Promise<void>;
}

let n = 0;

export function moneyScenarios(d: MoneyDriver) {
  const { suite } = d;
  const shop = () => suite.shop;
  async function person(name: string): Promise<Person> {
    const email = `money-${name}-${++n}@example.com`;
    const { token, user } = await signUp(suite.h, shop().secret, { email, first_name: name, locale: 'en' });
    return { token, id: user.id, email };
  }
  async function purchased(seller: Person) {
    const buyer = await person('buyer');
    const listing = await suite.listing(shop(), seller, { delivery: { pickup: true } });
    const { order, secret } = await suite.placed(shop(), buyer, { listing_id: listing, delivery: { method: 'pickup' } });
    expect((await suite.h.request({ method: 'POST', url: '/v1/test-helpers/payments/confirm', key: shop().secret, payload: { client_secret: secret, outcome: 'succeeded' } })).statusCode).toBe(200);
    await d.settle();
    expect((await suite.get(shop(), buyer, order.id)).state).toBe('purchased');
    return { id: order.id as string, buyer };
  }
  async function receive(o: { id: string; buyer: Person }) {
    expect((await suite.move(shop(), o.buyer, o.id, 'mark-received-early')).statusCode).toBe(200);
    await d.settle();
  }
  const payoutOf = async (seller: Person, id: string) => (await suite.get(shop(), seller, id)).payout;
  const reconcile = () => suite.h.console.payouts.reconcile({ marketplace: 'shop' });
  async function addsUp(id: string) {
    const r = await reconcile();
    expect(r.mismatches.find((m) => m.order_id === id)).toBeUndefined();
    expect(r.paid_twice).not.toContain(id);
  }

  describe('money rules', () => {
    let seller: Person;
    beforeAll(async () => {
      await suite.h.console.marketplace.update({ marketplace: 'shop', settings: { commission_percent: 10 } });
      seller = await person('seller');
      expect((await suite.call(shop(), seller, 'POST', '/v1/me/payouts/session', { country: 'SE' })).statusCode).toBe(200);
      await d.onboarded(seller);
    });

    test('a partial refund before received: the seller is paid net of it', async () => {
      const o = await purchased(seller);
      await d.refundOutside(o.id, 30_000);
      await receive(o);
      expect(await payoutOf(seller, o.id)).toMatchObject({ status: 'paid', amount: 60_000 });
      expect(await d.keptBySeller(o.id)).toBe(60_000);
      await addsUp(o.id);
    });

    test('refunds after received: the seller’s share bears them first (30 000, then the rest: the seller keeps 0)', async () => {
      const o = await purchased(seller);
      await receive(o);
      expect(await d.keptBySeller(o.id)).toBe(90_000);
      await d.refundOutside(o.id, 30_000);
      expect(await d.keptBySeller(o.id)).toBe(60_000);
      await addsUp(o.id);
      await d.refundOutside(o.id, 70_000);
      expect(await d.keptBySeller(o.id)).toBe(0);
      await addsUp(o.id);
    });

    test('a dispute won after the payout: withdrawn and reinstated, the seller keeps the payout', async () => {
      const o = await purchased(seller);
      await receive(o);
      await d.dispute(o.id, 'needs_response');
      await d.dispute(o.id, 'won');
      expect(await d.keptBySeller(o.id)).toBe(90_000);
      await addsUp(o.id);
    });

    test('a dispute lost after the payout: the seller’s transfer is reversed', async () => {
      const o = await purchased(seller);
      await receive(o);
      await d.dispute(o.id, 'needs_response');
      await d.dispute(o.id, 'lost');
      expect(await d.keptBySeller(o.id)).toBe(0);
      await addsUp(o.id);
    });

    test('a dispute won before the payout releases it; one lost before it keeps it held for the team (open)', async () => {
      const won = await purchased(seller);
      await d.dispute(won.id, 'needs_response');
      await receive(won);
      expect((await payoutOf(seller, won.id)).status).toBe('held_for_chargeback');
      await d.dispute(won.id, 'won');
      expect(await payoutOf(seller, won.id)).toMatchObject({ status: 'paid', amount: 90_000 });
      await addsUp(won.id);

      const lost = await purchased(seller);
      await d.dispute(lost.id, 'needs_response');
      await d.dispute(lost.id, 'lost');
      await receive(lost);
      expect((await payoutOf(seller, lost.id)).status).toBe('held_for_chargeback');
      expect(await d.keptBySeller(lost.id)).toBe(0);
      await addsUp(lost.id);
    });
  });
}
