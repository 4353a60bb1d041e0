import { afterAll, beforeAll, expect } from 'vitest';
import { stripePayments } from '@hm/domain/payments';
import { startStripeTestServer, stripeRequestProblems } from '@hm/domain/testing';
import type { Harness, HarnessOptions } from './harness.js';
import { ordersSuite } from './orders.suite.js';

/** What Stripe says of a connected account whose onboarding is done: payouts can go to it. */
export const ACCOUNT_READY = {
  details_submitted: true,
  payouts_enabled: true,
  capabilities: { transfers: 'active' },
  requirements: { currently_due: [], eventually_due: [], past_due: [], pending_verification: [], disabled_reason: null },
};

/**
 * A test file's local Stripe-speaking server, for the real `stripe` package: the harness options that
 * point the API's payments at it with one webhook secret for the platform endpoint and one for the
 * Connect endpoint; `listen` puts an app on a port and has the server deliver both endpoints' signed
 * webhooks there, as Stripe does. After the file, every request the adapter sent is checked against
 * Stripe's OpenAPI document.
 */
export async function stripeServer(name: string) {
  const secret = `whsec_${name}_test`;
  const connectSecret = `whsec_${name}_connect_test`;
  const stripe = await startStripeTestServer();
  const harness: HarnessOptions = { payments: stripePayments({ secretKey: stripe.apiKey, apiBase: stripe.url, returnUrl: 'http://localhost:4000' }), app: { stripeWebhookSecret: secret, stripeConnectWebhookSecret: connectSecret } };
  async function listen(h: Harness) {
    const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
    stripe.sendWebhooksTo(`${address}/webhooks/stripe`, secret);
    stripe.sendWebhooksTo(`${address}/webhooks/stripe/connect`, connectSecret, { connect: true });
  }
  /** what the team does in Stripe's dashboard (refunds, transfer reversals), beside the API */
  const dashboard = stripePayments({ secretKey: stripe.apiKey, apiBase: stripe.url, returnUrl: 'http://localhost:4000' });
  afterAll(() => expect(stripeRequestProblems(stripe.requests)).toEqual([]));
  afterAll(() => stripe.close());
  return { stripe, secret, connectSecret, harness, listen, dashboard };
}

/** The orders suite against a Stripe server (see stripeServer), listening for its webhooks. */
export async function stripeOrdersSuite(name: string) {
  const server = await stripeServer(name);
  const suite = ordersSuite(server.harness);
  beforeAll(() => server.listen(suite.h));
  /** the payment of an order: Stripe's PaymentIntent id */
  const paymentOf = async (id: string) => (await suite.h.console.orders.get({ id })).order.payment.id!;
  return { ...server, suite, paymentOf };
}
