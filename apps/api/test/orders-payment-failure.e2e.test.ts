import { beforeAll, describe, expect, test } from 'vitest';
import { PaymentError, type Payments } from '@hm/domain/payments';
import type { Harness } from './harness.js';
import { ordersSuite, type Market, type Person } from './orders.suite.js';

/** A payment provider that fails while an order is placed: 503 (or 409), and nothing is left reserved. */
let failure: 'none' | 'outage' | 'refused' | 'bug' = 'none';
const flaky = (sandbox: Payments): Payments => ({
  ...sandbox,
  async createPayment(req) {
    if (failure === 'outage') {
      await new Promise((r) => setTimeout(r, 20));
      throw new PaymentError('request timed out', 'unavailable');
    }
    if (failure === 'refused') throw new PaymentError('amount too small', 'refused');
    if (failure === 'bug') throw new TypeError('adapter bug');
    return sandbox.createPayment(req);
  },
});
const suite = ordersSuite({ ports: (local) => ({ payments: flaky(local.payments) }) });
let h: Harness;
let shop: Market;
let seller: Person;
let buyer: Person;
beforeAll(() => {
  ({ h, shop, seller, buyer } = suite);
});

const pendingJobs = async (task: string) => (await h.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int as n from graphile_worker.jobs where task_identifier = ?`, [task]))[0]!.n;

describe('the provider fails while placing', () => {
  test.each([
    ['outage', 503, 'service_unavailable'],
    ['refused', 409, 'conflict'],
    ['bug', 500, 'internal_error'],
  ] as const)('%s → %i; no order, the stock and the voucher use are back, no expiry job', async (kind, status, code) => {
    const listing = await suite.listing(shop, seller);
    await h.console.vouchers.create({ marketplace: 'shop', voucher: { code: `ONE-${kind}`, percent: 10, max_uses: 1 } });
    const jobs = await pendingJobs('expire-payment');
    failure = kind;
    const res = await suite.place(shop, buyer, { listing_id: listing, delivery: { method: 'pickup' }, voucher_code: `one-${kind}` });
    failure = 'none';
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().code).toBe(code);
    if (kind === 'outage') expect(res.headers['retry-after']).toBe('5');
    expect((await suite.call(shop, buyer, 'GET', '/v1/me/orders?limit=100')).json().items.filter((o: { listing_id: string }) => o.listing_id === listing)).toEqual([]);
    expect((await suite.call(shop, undefined, 'GET', `/v1/listings/${listing}`)).json().stock).toBe(1);
    expect(await pendingJobs('expire-payment')).toBe(jobs);
    // the voucher's one use was not spent: the retry succeeds with it
    const retry = await suite.place(shop, buyer, { listing_id: listing, delivery: { method: 'pickup' }, voucher_code: `ONE-${kind}` });
    expect(retry.statusCode, retry.body).toBe(201);
  });
});
