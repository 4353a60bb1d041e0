import type { Stripe } from 'stripe';
import { sameSecret } from '../../core/secret-token.js';
import { PaymentError, type Payments, type PaymentsSetup } from '../../core/ports/payments.js';

export interface StripeOptions {
  secretKey: string;
  /** any Stripe-compatible server (`http://127.0.0.1:12111`); unset: Stripe itself */
  apiBase?: string;
  /** per request; Stripe's own default (80 s) would hold a buyer's request far too long */
  timeoutMs?: number;
  /** where Stripe would send a buyer back after a redirect; only test confirmations (cards, no redirect) pass one */
  returnUrl?: string;
}

/**
 * One retry inside the SDK, with our idempotency key, covers a dropped connection or a lock
 * timeout; beyond that the caller retries: a request answers 503 with Retry-After (the client
 * retries with its Idempotency-Key), a job fails and graphile-worker backs off. More SDK retries
 * would hold a buyer's request for up to (retries + 1) × the timeout.
 */
export const STRIPE_MAX_NETWORK_RETRIES = 1;
/** The Stripe API version this adapter speaks (the `stripe` package's own); the webhook endpoints must render events in it. */
export const STRIPE_API_VERSION = '2026-10-28.endive';
export const STRIPE_TIMEOUT_MS = 10_000;

/** The SDK pointed at STRIPE_API_BASE when set (its host, port and protocol options). */
export function stripeClientConfig(opts: StripeOptions): Stripe.StripeConfig {
  const base = opts.apiBase ? new URL(opts.apiBase) : undefined;
  return {
    timeout: opts.timeoutMs ?? STRIPE_TIMEOUT_MS,
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    telemetry: false,
    apiVersion: STRIPE_API_VERSION,
    ...(base && { host: base.hostname, port: base.port || (base.protocol === 'http:' ? 80 : 443), protocol: base.protocol === 'http:' ? 'http' : 'https' }),
  };
}

/**
 * Stripe, through the official `stripe` package: one PaymentIntent per order on the platform
 * account ("separate charges and transfers": `transfer_group` = order id, so the seller's transfer
 * can follow), with `automatic_payment_methods` for the storefront's Payment Element. Every call
 * carries an idempotency key derived from our ids, so a retry never makes a second payment or
 * refund. Confirmations arrive through the webhook (`POST /webhooks/stripe`), never as return values.
 */
export function stripePayments(opts: StripeOptions): Payments {
  // The SDK loads on first use: processes that never pay (the console) do not pay for it.
  let client: Promise<Stripe> | undefined;
  const stripe = () => (client ??= import('stripe').then(({ default: StripeSdk }) => new StripeSdk(opts.secretKey, stripeClientConfig(opts))));
  const call = async <T>(what: string, fn: (s: Stripe) => Promise<T>): Promise<T> => {
    try {
      return await fn(await stripe());
    } catch (e) {
      throw toPaymentError(what, e);
    }
  };

  /** One part of the go-live check: its value, or why Stripe would not give it (one line). */
  const part = async <T>(what: string, fn: (s: Stripe) => Promise<T>): Promise<T | { error: string }> => {
    try {
      return await call(what, fn);
    } catch (e) {
      return { error: (e as Error).message };
    }
  };

  return {
    name: 'stripe',

    async inspect(): Promise<PaymentsSetup> {
      const [platform, accounts, endpoints] = await Promise.all([
        part('read the platform account', (s) => s.accounts.retrieveCurrent()),
        // Stripe lists connected accounts only for a platform signed up for Connect
        part('list connected accounts', (s) => s.accounts.list({ limit: 1 })),
        part('list the webhook endpoints', (s) => s.webhookEndpoints.list({ limit: 100 })),
      ]);
      return {
        keyMode: opts.secretKey.startsWith('sk_live_') ? 'live' : 'test',
        apiVersion: STRIPE_API_VERSION,
        platform: 'error' in platform ? platform : { id: platform.id, country: platform.country ?? null, chargesEnabled: platform.charges_enabled, payoutsEnabled: platform.payouts_enabled },
        connect: 'error' in accounts ? { enabled: false, why: accounts.error } : { enabled: true },
        webhookEndpoints:
          'error' in endpoints
            ? endpoints
            : endpoints.data.map((e) => ({
                url: e.url,
                // the SDK's type leaves out `connect`, which Stripe returns on every endpoint
                connect: (e as unknown as { connect?: boolean }).connect === true,
                enabledEvents: e.enabled_events,
                apiVersion: e.api_version,
                status: e.status,
              })),
      };
    },

    async createPayment(req) {
      const intent = await call('create the payment', (s) =>
        s.paymentIntents.create(
          {
            amount: req.amount,
            currency: req.currency.toLowerCase(),
            automatic_payment_methods: { enabled: true },
            metadata: { marketplace_id: req.marketplaceId, order_id: req.orderId },
            transfer_group: req.orderId,
          },
          { idempotencyKey: `payment-${req.id}` },
        ),
      );
      if (!intent.client_secret) throw new PaymentError(`Stripe returned PaymentIntent ${intent.id} without a client secret`, 'unavailable');
      return { providerId: intent.id, clientSecret: intent.client_secret };
    },

    async cancelPayment(paymentId) {
      try {
        await call('cancel the payment', (s) => s.paymentIntents.cancel(paymentId, {}, { idempotencyKey: `cancel-${paymentId}` }));
      } catch (e) {
        if (!(e instanceof PaymentError) || e.kind !== 'unexpected_state') throw e;
        // canceled before (another key), or completed meanwhile: a completed payment is left alone
        const intent = await call('read the payment', (s) => s.paymentIntents.retrieve(paymentId));
        if (intent.status !== 'canceled' && intent.status !== 'succeeded') throw e;
      }
    },

    async refund(req) {
      const refund = await call('refund the payment', (s) =>
        s.refunds.create({ payment_intent: req.paymentId, ...(req.amount !== undefined && { amount: req.amount }) }, { idempotencyKey: `refund-${req.id}` }),
      );
      return { providerId: refund.id };
    },

    async confirmForTest(clientSecret, outcome, marketplaceId) {
      if (opts.secretKey.startsWith('sk_live_')) throw new PaymentError('test confirmations are refused with a live Stripe key', 'refused');
      const id = /^(pi_[A-Za-z0-9]+)_secret_[A-Za-z0-9]+$/.exec(clientSecret)?.[1];
      if (!id) return null;
      let intent: Stripe.PaymentIntent;
      try {
        intent = await call('read the payment', (s) => s.paymentIntents.retrieve(id));
      } catch (e) {
        if (e instanceof PaymentError && e.providerCode === 'resource_missing') return null; // no such PaymentIntent
        throw e;
      }
      if (!intent.client_secret || !sameSecret(clientSecret, intent.client_secret) || intent.metadata.marketplace_id !== marketplaceId) return null;
      if (intent.status === 'succeeded' || intent.status === 'canceled') throw new PaymentError(`payment ${id} is already ${intent.status}`, 'unexpected_state');
      // Stripe's test cards: one that pays, one that is declined. A decline is the outcome asked for,
      // not an error: Stripe sends payment_intent.payment_failed to the webhook either way.
      const paymentMethod = outcome === 'succeeded' ? 'pm_card_visa' : 'pm_card_visa_chargeDeclined';
      try {
        await call('confirm the payment', (s) => s.paymentIntents.confirm(id, { payment_method: paymentMethod, ...(opts.returnUrl && { return_url: opts.returnUrl }) }));
      } catch (e) {
        if (!(outcome === 'failed' && e instanceof PaymentError && e.providerCode === 'card_declined')) throw e;
      }
      return [];
    },

    async createAccount(req) {
      const account = await call('create the connected account', (s) =>
        s.accounts.create(
          {
            country: req.country,
            business_type: req.businessType,
            ...(req.email && { email: req.email }),
            // the platform collects requirements, pays Stripe's fees and carries losses; no Stripe dashboard for the seller
            controller: { fees: { payer: 'application' }, losses: { payments: 'application' }, requirement_collection: 'application', stripe_dashboard: { type: 'none' } },
            capabilities: { transfers: { requested: true } },
            metadata: { marketplace_id: req.marketplaceId, user_id: req.userId, payout_account_id: req.id },
          },
          { idempotencyKey: `account-${req.id}` },
        ),
      );
      return { providerId: account.id };
    },

    async createAccountSession(accountId) {
      // a new session each time (client secrets are short-lived): no idempotency key
      const session = await call('start an onboarding session', (s) => s.accountSessions.create({ account: accountId, components: { account_onboarding: { enabled: true } } }));
      return { clientSecret: session.client_secret };
    },

    async transfer(req) {
      let charge: string | undefined;
      if (req.paymentId) {
        const paymentId = req.paymentId;
        const intent = await call('read the payment', (s) => s.paymentIntents.retrieve(paymentId));
        charge = typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id;
        if (intent.status !== 'succeeded' || !charge) throw new PaymentError(`payment ${req.paymentId} has no succeeded charge to transfer from`, 'refused');
      }
      const transfer = await call('pay the seller', (s) =>
        s.transfers.create(
          {
            amount: req.amount,
            currency: req.currency.toLowerCase(),
            destination: req.destination,
            transfer_group: req.orderId,
            ...(charge && { source_transaction: charge }),
            metadata: { marketplace_id: req.marketplaceId, order_id: req.orderId },
          },
          { idempotencyKey: `transfer-${req.id}` },
        ),
      );
      return { providerId: transfer.id };
    },

    async reverseTransfer(req) {
      const reversal = await call('take money back from the seller', (s) =>
        s.transfers.createReversal(req.transferId, { amount: req.amount, metadata: { marketplace_id: req.marketplaceId, order_id: req.orderId } }, { idempotencyKey: `reversal-${req.id}` }),
      );
      return { providerId: reversal.id };
    },

    updateAccountForTest() {
      return Promise.reject(new PaymentError('Stripe moves connected accounts itself: complete onboarding with Stripe’s test data instead', 'refused'));
    },

    disputeForTest() {
      return Promise.reject(new PaymentError('Stripe opens disputes itself: pay with a dispute test card (pm_card_createDispute) instead', 'refused'));
    },

    async refundForTest(paymentId, amount) {
      if (opts.secretKey.startsWith('sk_live_')) throw new PaymentError('test refunds are refused with a live Stripe key', 'refused');
      // made as a refund in Stripe's dashboard would be: not under an idempotency key of ours
      await call('refund the payment', (s) => s.refunds.create({ payment_intent: paymentId, amount }));
      return [];
    },
  };
}

/**
 * What the caller can do about a Stripe failure: retry later (no answer, a timeout, 409 lock
 * timeouts, 429, 5xx) or not (invalid request, declined card, unknown object). Anything not from the
 * SDK (a bug of ours) is left as it is, so it is not mistaken for an outage.
 */
export function toPaymentError(what: string, e: unknown): unknown {
  const err = e as { type?: unknown; statusCode?: number; code?: string; message?: string } | undefined;
  if (e instanceof PaymentError || typeof err?.type !== 'string' || !err.type.startsWith('Stripe')) return e;
  const status = err.statusCode;
  const detail = `Stripe could not ${what}: ${[status ?? 'no answer', err.code, err.message].filter(Boolean).join(' ')}`;
  const outage = status === undefined || status === 409 || status === 429 || status >= 500;
  if (outage) return new PaymentError(detail, 'unavailable', err.code);
  return new PaymentError(detail, err.code === 'payment_intent_unexpected_state' ? 'unexpected_state' : 'refused', err.code);
}
