import { afterAll, beforeAll, expect, test } from 'vitest';
import { resendMailer } from '@hm/domain/emails';
import { s3ImageStore } from '@hm/domain/images';
import { stripePayments } from '@hm/domain/payments';
import { startResendTestServer, startS3TestServer, startStripeTestServer, type ResendTestServer, type S3TestServer, type StripeTestServer, stripeRequestProblems } from '@hm/domain/testing';
import { makeMarketplace, signUp, startHarness, type Harness } from './harness.js';

/**
 * A live rehearsal: `API_MODE=live` with every adapter pointed at the local servers that speak
 * Stripe's, Resend's and S3's APIs, a whole sale from sign-up to the seller's transfer. Nothing goes
 * through a test helper (they answer 404 in live, checked at every step): the buyer pays as Stripe's
 * Payment Element would (a confirm with a card, made here straight to the Stripe-speaking server),
 * Stripe's signed `payment_intent.succeeded` reaches the platform endpoint, and the seller's finished
 * onboarding arrives as a signed `account.updated` on the Connect endpoint, with its own secret.
 */
const SECRET = 'whsec_rehearsal_platform';
const CONNECT_SECRET = 'whsec_rehearsal_connect';
let stripe: StripeTestServer;
let resend: ResendTestServer;
let s3: S3TestServer;
let h: Harness;

beforeAll(async () => {
  [stripe, resend, s3] = await Promise.all([startStripeTestServer({ apiKey: `sk_live_${crypto.randomUUID().replaceAll('-', '')}` }), startResendTestServer(), startS3TestServer()]);
  h = await startHarness({
    mode: 'live',
    restrictedOwner: true,
    payments: stripePayments({ secretKey: stripe.apiKey, apiBase: stripe.url, returnUrl: 'https://api.shop.example' }),
    ports: () => ({
      mailer: resendMailer({ apiKey: resend.apiKey, baseUrl: resend.url }),
      images: s3ImageStore({ bucket: s3.bucket, endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }),
    }),
    app: { stripeWebhookSecret: SECRET, stripeConnectWebhookSecret: CONNECT_SECRET },
  });
  const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
  stripe.sendWebhooksTo(`${address}/webhooks/stripe`, SECRET);
  stripe.sendWebhooksTo(`${address}/webhooks/stripe/connect`, CONNECT_SECRET, { connect: true });
});
// every request the Stripe adapter sent, checked against Stripe's OpenAPI document
afterAll(() => expect(stripeRequestProblems(stripe.requests)).toEqual([]));
afterAll(async () => {
  await h?.close();
  await Promise.all([stripe?.close(), resend?.close(), s3?.close()]);
});

/** Stripe's deliveries answered (every one 200), then the jobs they caused and the jobs those caused. */
async function delivered() {
  const deliveries = await stripe.settled();
  expect(deliveries.filter((d) => d.status !== 200)).toEqual([]);
  await h.runJobs();
  await h.runJobs();
  return deliveries;
}

test('live rehearsal: sign-up → listing → order → paid through the platform webhook → sent → received → onboarding through the Connect webhook → transfer → reconcile ok', async () => {
  const shop = await makeMarketplace(h, 'shop', { currencies: ['SEK'], locales: ['en'] });
  expect(shop.secret).toMatch(/^sk_live_/);
  await h.console.marketplace.update({ marketplace: 'shop', settings: { commission_percent: 10, listings: { min_images: 0, require_approval: false, require_category: false, required_terms: [], valuations: false } } });
  const call = (session: string | undefined, method: 'GET' | 'POST', url: string, payload?: object) => h.request({ method, url, key: shop.secret, ...(session && { session }), ...(payload && { payload }) });
  /** Every payment test helper: 404 in a live deployment, whatever is asked. */
  const helpersAnswer404 = async (session: string, orderId: string = crypto.randomUUID()) => {
    const statuses = [
      (await call(undefined, 'POST', '/v1/test-helpers/payments/confirm', { client_secret: 'pi_x_secret_y', outcome: 'succeeded' })).statusCode,
      (await call(undefined, 'POST', '/v1/test-helpers/payments/dispute', { order_id: orderId })).statusCode,
      (await call(undefined, 'POST', '/v1/test-helpers/payments/refund', { order_id: orderId, amount: 1 })).statusCode,
      (await call(session, 'POST', '/v1/test-helpers/payouts/account', { status: 'ready' })).statusCode,
    ];
    expect(statuses).toEqual([404, 404, 404, 404]);
  };

  // sign-up
  const seller = await signUp(h, shop.secret, { email: 'seller@shop.example', first_name: 'Sam', locale: 'en' });
  const buyer = await signUp(h, shop.secret, { email: 'buyer@shop.example', first_name: 'Bo', locale: 'en' });
  await helpersAnswer404(seller.token);

  // listing
  const created = await call(seller.token, 'POST', '/v1/me/listings', {
    title: 'Brass lamp',
    description: 'Brass, 1950s.',
    price: { amount: 100_000, currency: 'SEK' },
    location: { city: 'Stockholm', country: 'SE', postal_code: '11646' },
    delivery: { pickup: true },
    stock: 1,
  });
  expect(created.statusCode, created.body).toBe(201);
  const listing = created.json().id as string;
  expect((await call(seller.token, 'POST', `/v1/me/listings/${listing}/publish`, {})).json().status).toBe('published');

  // order: a PaymentIntent on the live platform account
  const placed = await call(buyer.token, 'POST', '/v1/me/orders', { listing_id: listing, delivery: { method: 'pickup' } });
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json().order.id as string;
  const clientSecret = placed.json().payment.client_secret as string;
  const paymentId = /^(pi_\w+?)_secret_/.exec(clientSecret)![1]!;
  expect(stripe.paymentIntent(paymentId)).toMatchObject({ amount: 100_000, currency: 'sek', livemode: true, metadata: { order_id: order } });
  await helpersAnswer404(buyer.token, order);
  expect((await call(buyer.token, 'GET', `/v1/me/orders/${order}`)).json().state).toBe('pending_payment');

  // the buyer pays in Stripe's Payment Element; Stripe signs payment_intent.succeeded to the platform endpoint
  const confirmed = await fetch(`${stripe.url}/v1/payment_intents/${paymentId}/confirm`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stripe.apiKey}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ payment_method: 'pm_card_visa', return_url: 'https://shop.example/en/orders' }),
  });
  expect(confirmed.status).toBe(200);
  const paid = await delivered();
  expect(paid.filter((d) => d.type === 'payment_intent.succeeded').map((d) => d.status)).toEqual([200]);
  expect((await call(buyer.token, 'GET', `/v1/me/orders/${order}`)).json().state).toBe('purchased');

  // the seller starts payout setup (a connected account at Stripe), sends the item; the buyer receives it
  const session = await call(seller.token, 'POST', '/v1/me/payouts/session', { country: 'SE' });
  expect(session.statusCode, session.body).toBe(200);
  const account = stripe.accountSessions.at(-1)!.account as string;
  const sent = await call(seller.token, 'POST', `/v1/me/orders/${order}/transitions/mark-delivered`, {});
  expect(sent.statusCode, sent.body).toBe(200);
  expect(sent.json().state).toBe('delivered');
  const received = await call(buyer.token, 'POST', `/v1/me/orders/${order}/transitions/mark-received`, {});
  expect(received.statusCode, received.body).toBe(200);
  expect(received.json().state).toBe('received');
  await h.runJobs();
  // not paid yet: the seller's account is not ready
  expect((await call(seller.token, 'GET', `/v1/me/orders/${order}`)).json().payout).toMatchObject({ amount: 90_000, status: 'waiting_for_payout_details' });
  expect(stripe.transfers).toEqual([]);
  await helpersAnswer404(seller.token, order);

  // onboarding done at Stripe: account.updated, signed with the Connect endpoint's secret, on the Connect route only
  stripe.updateAccount(account, {
    details_submitted: true,
    payouts_enabled: true,
    capabilities: { transfers: 'active' },
    requirements: { currently_due: [], eventually_due: [], past_due: [], pending_verification: [], disabled_reason: null },
  });
  const onboarded = (await delivered()).filter((d) => d.type === 'account.updated');
  expect(onboarded.map((d) => d.status)).toEqual([200]);
  expect((await call(seller.token, 'GET', '/v1/me/payouts')).json()).toEqual({ status: 'ready', due: [] });
  await h.runJobs();

  // the transfer from the order's charge, once
  expect(stripe.transfers).toEqual([expect.objectContaining({ amount: 90_000, currency: 'sek', destination: account, transfer_group: order, source_transaction: stripe.paymentIntent(paymentId)!.latest_charge })]);
  expect((await call(seller.token, 'GET', `/v1/me/orders/${order}`)).json().payout).toMatchObject({ amount: 90_000, status: 'paid' });
  expect(await h.console.payouts.reconcile({ marketplace: 'shop' })).toMatchObject({ ok: true, checked: 1, open: 0, mismatches: [], paid_twice: [] });
  await helpersAnswer404(seller.token, order);
}, 60_000);
