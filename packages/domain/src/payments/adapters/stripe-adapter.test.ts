import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { stripePayments } from './stripe-payments.js';
import { type StripeTestServer } from '../../testing/stripe-test-server.js';
import { checkStripeRequestsAfterAll, marketplaceId, request, startStripeTestServer, stripeFixture } from '../../testing/payment-fixtures.js';

/**
 * The Stripe adapter beyond the contract both adapters keep (payments.contract.test.ts): what it
 * sends Stripe, timeouts and unreachable servers, the connected accounts Stripe accepts and
 * transfers in the currency a charge settled in, and its errors classified by what can be done
 * about them (stored 5xx and idempotency keys: stripe-idempotency.test.ts). Every request is
 * checked against Stripe's spec as in the contract tests.
 */
checkStripeRequestsAfterAll();

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
