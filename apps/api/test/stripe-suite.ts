import { afterAll, beforeAll, expect } from 'vitest';
import { stripePayments } from '@hm/domain/payments';
import { startStripeTestServer, stripeRequestProblems } from '@hm/domain/testing';
import { ordersSuite } from './orders.suite.js';

/**
 * The orders suite against Stripe: the real `stripe` package pointed at the local Stripe-speaking
 * server, whose signed webhooks reach this API on a port — the platform endpoint and the Connect
 * endpoint, each with its own secret, as Stripe delivers them. After the file, every request the
 * adapter sent is checked against Stripe's OpenAPI document.
 */
export async function stripeOrdersSuite(name: string) {
  const secret = `whsec_${name}_test`;
  const connectSecret = `whsec_${name}_connect_test`;
  const stripe = await startStripeTestServer();
  const suite = ordersSuite({ payments: stripePayments({ secretKey: stripe.apiKey, apiBase: stripe.url, returnUrl: 'http://localhost:4000' }), app: { stripeWebhookSecret: secret, stripeConnectWebhookSecret: connectSecret } });
  beforeAll(async () => {
    const address = await suite.h.app.listen({ port: 0, host: '127.0.0.1' });
    stripe.sendWebhooksTo(`${address}/webhooks/stripe`, secret);
    stripe.sendWebhooksTo(`${address}/webhooks/stripe/connect`, connectSecret, { connect: true });
  });
  afterAll(() => expect(stripeRequestProblems(stripe.requests)).toEqual([]));
  afterAll(() => stripe.close());
  return { stripe, suite };
}
