import { expect } from 'vitest';
import { PaymentError } from '@hm/domain/payments';
import { ordersSuite, type Market, type OrdersSuite, type Person } from './orders.suite.js';
import { signUp } from './harness.js';

/**
 * Shared by the payout test files: the orders suite with the provider's transfer under the test's
 * control (count, refuse, crash after it was made, hold it at a gate) and the payout helpers.
 */
export function payoutsSuite() {
  const transfers = {
    calls: 0,
    /** when set: the next transfer is made at the provider, then the worker dies before our commit */
    crashNext: false,
    /** when set: the next transfer is refused by the provider (nothing is made) */
    refuseNext: false,
    /** every transfer asked for: our id (the provider's idempotency key) and amount */
    asks: [] as { id: string; orderId: string; amount: number }[],
    /** when set: the transfer says it started, then waits for the gate (a slow provider) */
    gate: undefined as { started: () => void; open: Promise<void> } | undefined,
  };
  const suite = ordersSuite({
    ports: (local) => ({
      payments: {
        ...local.payments,
        async transfer(req) {
          transfers.calls++;
          transfers.asks.push({ id: req.id, orderId: req.orderId, amount: req.amount });
          if (transfers.refuseNext) {
            transfers.refuseNext = false;
            throw new PaymentError('the platform balance is too low (test)', 'refused', 'balance_insufficient');
          }
          if (transfers.gate) {
            transfers.gate.started();
            await transfers.gate.open;
          }
          const made = await local.payments.transfer(req);
          if (transfers.crashNext) {
            transfers.crashNext = false;
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
  const { reconcile, mismatchOf, ledgerOf } = books(suite);
  const dispute = (m: Market, id: string, status: string, reason = 'fraudulent') => suite.call(m, undefined, 'POST', '/v1/test-helpers/payments/dispute', { order_id: id, status, reason });
  const refundOutside = async (m: Market, id: string, amount: number) => {
    const res = await suite.call(m, undefined, 'POST', '/v1/test-helpers/payments/refund', { order_id: id, amount });
    expect(res.statusCode, res.body).toBe(200);
    await suite.h.runJobs();
  };
  return { suite, transfers, json, person, setup, moveAccount, readySeller, received, payoutOf, reconcile, mismatchOf, ledgerOf, dispute, refundOutside };
}

/** The books of marketplace "shop" (payouts against the provider), shared with the payout files run against Stripe. */
export function books(suite: OrdersSuite) {
  const reconcile = () => suite.h.console.payouts.reconcile({ marketplace: 'shop' });
  /** what reconcile says of one order: undefined when it adds up */
  const mismatchOf = async (id: string) => (await reconcile()).mismatches.find((m) => m.order_id === id);
  /** an order's ledger rows: [kind, amount] */
  const ledgerOf = async (id: string) =>
    (await suite.h.orm.em.getConnection().execute<{ kind: string; amount: string }[]>(`select kind, amount from ledger_entries where order_id = ? order by kind, amount`, [id])).map((r): [string, number] => [r.kind, Number(r.amount)]);
  return { reconcile, mismatchOf, ledgerOf };
}
