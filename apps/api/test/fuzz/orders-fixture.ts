import { expect } from 'vitest';
import type { Harness } from '../harness.js';

/**
 * The orders part of the fuzz world: a shipping table with delivery booking for Sweden, a voucher,
 * and orders of the main user as buyer (from the other seller) in the states the order operations
 * act on, so that valid requests reach the handlers and succeed at least once.
 */
export interface OrdersWorld {
  /** another seller's listing on sale with plenty of stock (picked up): what POST /me/orders buys */
  listing: string;
  voucher: string;
  /** every order of the main user */
  ids: string[];
  /** paid and never sent: the buyer may mark them received early */
  receivable: string[];
  /** paid, shipped to a booking zone: the buyer books their delivery */
  booked: string[];
  /** sold by the main user (the other seller bought them) and marked sent: she may add or correct tracking */
  sent: string[];
  /** client secrets of payments not made yet */
  secrets: string[];
}

const SHIPPING = {
  currency: 'SEK',
  sizes: [{ key: 'small', name: 'Small' }],
  zones: [{ key: 'se', name: 'Sweden', countries: ['SE'] }],
  options: [{ key: 'standard', name: 'Standard' }],
  delivery: { standard: { small: { se: 4900 } } },
  booking: { horizon_days: 60, lead_days: 0, weekdays: [1, 2, 3, 4, 5, 6, 7], windows: [{ key: 'am', label: '08–12' }], zones: ['se'] },
};

export async function buildOrders(h: Harness, m: { slug: string; secret: string }, buyer: string, seller: string): Promise<OrdersWorld> {
  // the fixture holds several unpaid orders of one buyer at once: above the default cap of orders awaiting payment
  await h.console.marketplace.update({ marketplace: m.slug, settings: { shipping: SHIPPING as never, abuse_limits: { pending_orders_per_buyer: 20 } } });
  await h.console.vouchers.create({ marketplace: m.slug, voucher: { code: 'FUZZ10', percent: 10 } });
  const call = async (method: 'POST', url: string, session: string, payload: object) => {
    const res = await h.request({ method, url, key: m.secret, session, payload });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const listing = async (delivery: object, stock: number) => {
    const { id } = await call('POST', '/v1/me/listings', seller, { title: 'Stool', price: { amount: 50000, currency: 'SEK' }, location: { country: 'SE' }, delivery, stock });
    await h.console.listings.setShippingSize({ id, size: 'small' });
    await call('POST', `/v1/me/listings/${id}/publish`, seller, {});
    return id as string;
  };
  const pickup = await listing({ pickup: true }, 10000);
  const shipped = await listing({ shipping: {} }, 100);
  const place = async (listing_id: string, delivery: object) => (await call('POST', '/v1/me/orders', buyer, { listing_id, delivery })) as { order: { id: string }; payment: { client_secret: string } };
  const paid = async (listing_id: string, delivery: object) => {
    const { order, payment } = await place(listing_id, delivery);
    await h.request({ method: 'POST', url: '/v1/test-helpers/payments/confirm', key: m.secret, payload: { client_secret: payment.client_secret, outcome: 'succeeded' } });
    return order.id;
  };
  // placed 20 days ahead, so the run's `timers/advance` (until 2026-12-24) does not cancel them as never sent
  const now = h.clock.now();
  h.clock.advance(20 * 24 * 3600_000);
  const receivable = [await paid(pickup, { method: 'pickup' }), await paid(pickup, { method: 'pickup' })];
  const booked = [await paid(shipped, { address: { country: 'SE', postal_code: '11646' } }), await paid(shipped, { address: { country: 'SE', postal_code: '41101' } })];
  const pending = [await place(pickup, { method: 'pickup' }), await place(pickup, { method: 'pickup' }), await place(pickup, { method: 'pickup' })];
  // the main user's own sale, bought by the other seller
  const { id: mine } = await call('POST', '/v1/me/listings', buyer, { title: 'Lamp', price: { amount: 30000, currency: 'SEK' }, location: { country: 'SE' }, delivery: { pickup: true }, stock: 10 });
  await call('POST', `/v1/me/listings/${mine}/publish`, buyer, {});
  const sold = [(await call('POST', '/v1/me/orders', seller, { listing_id: mine, delivery: { method: 'pickup' } })) as { order: { id: string }; payment: { client_secret: string } }];
  for (const s of sold) await h.request({ method: 'POST', url: '/v1/test-helpers/payments/confirm', key: m.secret, payload: { client_secret: s.payment.client_secret, outcome: 'succeeded' } });
  await h.runJobs(); // the payments' events move the paid orders
  await h.runJobs();
  const sent = [];
  for (const s of sold) sent.push((await call('POST', `/v1/me/orders/${s.order.id}/transitions/mark-delivered`, buyer, {})).id as string);
  h.clock.set(now);
  return { listing: pickup, voucher: 'FUZZ10', ids: [...receivable, ...booked, ...pending.map((p) => p.order.id), ...sent], receivable, booked, sent, secrets: pending.map((p) => p.payment.client_secret) };
}
