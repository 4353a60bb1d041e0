import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { localPayments, stripePayments, verifyStripeWebhook, type PaymentEvent, type PaymentRequest, type Payments } from '../payments/index.js';
import { startStripeTestServer as startServer, type StripeTestServer } from './stripe-test-server.js';
import { stripeRequestProblems } from './stripe-spec.js';

/**
 * The payment adapters' test fixtures (payments/adapters: payments.contract.test.ts, stripe-adapter.test.ts): the
 * sandbox on disk, and Stripe through the real `stripe` package against a local server speaking the
 * part of Stripe's HTTP API we use, its webhook deliveries verified as `POST /webhooks/stripe` does.
 */
export interface Fixture {
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

export function localFixture(): Fixture {
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
export const startStripeTestServer: typeof startServer = async (...args) => {
  const server = await startServer(...args);
  servers.push(server);
  return server;
};
/** Registers the check (after the file's tests) that the file sent Stripe requests and every one conforms to Stripe's spec. */
export function checkStripeRequestsAfterAll() {
  afterAll(() => {
    const requests = servers.flatMap((s) => s.requests);
    expect(requests.length).toBeGreaterThan(0);
    expect(stripeRequestProblems(requests)).toEqual([]);
  });
}

export async function stripeFixture(): Promise<Fixture & { server: StripeTestServer }> {
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

export const adapters: [string, () => Promise<Fixture>][] = [
  ['local sandbox', async () => localFixture()],
  ['stripe', stripeFixture],
];

export const marketplaceId = '0190a000-0000-7000-8000-000000000001';
export const request = (over: Partial<PaymentRequest> = {}): PaymentRequest => {
  const orderId = crypto.randomUUID();
  return { id: orderId, marketplaceId, orderId, amount: 12_345, currency: 'SEK', ...over };
};
