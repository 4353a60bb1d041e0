import type { Stripe } from 'stripe';
import { sameSecret } from '../../core/secret-token.js';
import { PaymentError, type Payments, type PaymentsSetup } from '../../core/ports/payments.js';
import { STRIPE_API_VERSION, stripeClientConfig, type StripeOptions } from './stripe-config.js';
import { replayedServerError, toPaymentError } from './stripe-errors.js';

export { STRIPE_API_VERSION, STRIPE_MAX_NETWORK_RETRIES, STRIPE_TIMEOUT_MS, type StripeOptions } from './stripe-config.js';

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
  /**
   * A create made once, under the idempotency keys `<base>`, `<base>~2`, `<base>~3`, … Stripe keeps
   * the first answer under a key for 24 hours, a 500 included, so retrying one key after a 500 would
   * replay that 500 for a day. Each create goes without the SDK's own retries, so the answer seen is
   * this request's: a replayed 5xx says that key's attempt ended in a server error earlier — before
   * moving on to the next key, `existing` looks (once per call, by our ids) for what any earlier
   * attempt made and returns it; a fresh 5xx is this call's one attempt (retryable: the next call
   * walks past it). Everything else — success, a refusal, a timeout or a dropped connection, whose
   * outcome is unknown and which the next call retries under the same key — ends the walk.
   */
  const createOnce = async <T>(what: string, base: string, create: (s: Stripe, key: string) => Promise<T>, existing?: (s: Stripe) => Promise<T | undefined>): Promise<T> => {
    const s = await stripe().catch((e: unknown) => Promise.reject(toPaymentError(what, e)));
    let looked = false;
    for (let n = 1; n <= STRIPE_MAX_KEYS; n++) {
      try {
        return await create(s, n === 1 ? base : `${base}~${n}`);
      } catch (e) {
        if (!replayedServerError(e)) throw toPaymentError(what, e);
        if (existing && !looked) {
          looked = true;
          const found = await existing(s).catch((err: unknown) => Promise.reject(toPaymentError(what, err)));
          if (found !== undefined) return found;
        }
      }
    }
    throw new PaymentError(`Stripe could not ${what}: the last ${STRIPE_MAX_KEYS} attempts all ended in server errors`, 'unavailable');
  };
  /** The SDK retries nothing itself under a key createOnce walks (a retry would only replay the stored answer). */
  const once = (key: string): Stripe.RequestOptions => ({ idempotencyKey: key, maxNetworkRetries: 0 });

  // the platform's own account (its country decides a seller's service agreement), read once
  let platform: Promise<Stripe.Account> | undefined;
  const platformAccount = () => (platform ??= call('read the platform account', (s) => s.accounts.retrieveCurrent()).catch((e: unknown) => ((platform = undefined), Promise.reject(e))));

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
      // no look for an earlier attempt's PaymentIntent (Stripe's search is not read-after-write): one
      // made behind a 500 never reaches a buyer (its client secret was never returned), so it is never paid
      const intent = await createOnce('create the payment', `payment-${req.id}`, (s, key) =>
        s.paymentIntents.create(
          {
            amount: req.amount,
            currency: req.currency.toLowerCase(),
            automatic_payment_methods: { enabled: true },
            metadata: { marketplace_id: req.marketplaceId, order_id: req.orderId },
            transfer_group: req.orderId,
          },
          once(key),
        ),
      );
      if (!intent.client_secret) throw new PaymentError(`Stripe returned PaymentIntent ${intent.id} without a client secret`, 'unavailable');
      return { providerId: intent.id, clientSecret: intent.client_secret };
    },

    async cancelPayment(paymentId) {
      try {
        // canceling is idempotent by nature (a second cancel is unexpected_state, handled below): a
        // fixed key would only keep a 500 for 24 hours
        await call('cancel the payment', (s) => s.paymentIntents.cancel(paymentId, {}));
      } catch (e) {
        if (!(e instanceof PaymentError) || e.kind !== 'unexpected_state') throw e;
        // canceled before (another key), or completed meanwhile: a completed payment is left alone
        const intent = await call('read the payment', (s) => s.paymentIntents.retrieve(paymentId));
        if (intent.status !== 'canceled' && intent.status !== 'succeeded') throw e;
      }
    },

    async refund(req) {
      const refund = await createOnce(
        'refund the payment',
        `refund-${req.id}`,
        (s, key) => s.refunds.create({ payment_intent: req.paymentId, ...(req.amount !== undefined && { amount: req.amount }), metadata: { refund_id: req.id } }, once(key)),
        // an earlier attempt's refund carries our refund id
        async (s) => (await s.refunds.list({ payment_intent: req.paymentId, limit: 100 })).data.find((r) => r.metadata?.refund_id === req.id),
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
      const { country: platformCountry } = await platformAccount();
      const agreement = serviceAgreementFor(req.country, platformCountry ?? '', req.serviceAgreement);
      const account = await createOnce('create the connected account', `account-${req.id}`, (s, key) =>
        s.accounts.create(
          {
            country: req.country,
            business_type: req.businessType,
            ...(req.email && { email: req.email }),
            // the platform collects requirements, pays Stripe's fees and carries losses; no Stripe dashboard for the seller
            controller: { fees: { payer: 'application' }, losses: { payments: 'application' }, requirement_collection: 'application', stripe_dashboard: { type: 'none' } },
            // `full`: transfers with card_payments (transfers alone needs Stripe's approval of the platform);
            // `recipient`: transfers only, the seller's relationship is with the platform (cross-border payouts need it)
            capabilities: agreement === 'full' ? { card_payments: { requested: true }, transfers: { requested: true } } : { transfers: { requested: true } },
            ...(agreement === 'recipient' && { tos_acceptance: { service_agreement: 'recipient' } }),
            metadata: { marketplace_id: req.marketplaceId, user_id: req.userId, payout_account_id: req.id },
          },
          once(key),
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
      let amount = req.amount;
      let currency = req.currency.toLowerCase();
      if (req.paymentId) {
        const paymentId = req.paymentId;
        const intent = await call('read the payment', (s) => s.paymentIntents.retrieve(paymentId, { expand: ['latest_charge.balance_transaction'] }));
        const latest = typeof intent.latest_charge === 'string' ? undefined : intent.latest_charge;
        if (intent.status !== 'succeeded' || !latest) throw new PaymentError(`payment ${req.paymentId} has no succeeded charge to transfer from`, 'refused');
        charge = latest.id;
        // a transfer from a charge is in the currency the charge settled in (its balance transaction's):
        // a charge in a currency the platform does not settle in was converted, so the seller's share is too
        const settled = typeof latest.balance_transaction === 'object' ? latest.balance_transaction : null;
        if (settled && settled.currency !== latest.currency) {
          currency = settled.currency;
          amount = settledShare(req.amount, latest.amount, settled.amount);
        }
      }
      const transfer = await createOnce(
        'pay the seller',
        `transfer-${req.id}${req.retry ? `-retry${req.retry}` : ''}`,
        (s, key) =>
          s.transfers.create(
            {
              amount,
              currency,
              destination: req.destination,
              transfer_group: req.orderId,
              ...(charge && { source_transaction: charge }),
              metadata: { marketplace_id: req.marketplaceId, order_id: req.orderId },
            },
            once(key),
          ),
        // an earlier attempt's transfer is in the order's transfer group, with our order id
        async (s) => (await s.transfers.list({ transfer_group: req.orderId, limit: 100 })).data.find((t) => t.metadata?.order_id === req.orderId && t.destination === req.destination),
      );
      return { providerId: transfer.id, ...(transfer.currency !== req.currency.toLowerCase() && { currency: transfer.currency.toUpperCase(), amount: transfer.amount }) };
    },

    async reverseTransfer(req) {
      const reversal = await createOnce(
        'take money back from the seller',
        `reversal-${req.id}`,
        (s, key) => s.transfers.createReversal(req.transferId, { amount: req.amount, metadata: { marketplace_id: req.marketplaceId, order_id: req.orderId, reversal_id: req.id } }, once(key)),
        // an earlier attempt's reversal is on the transfer, with our reversal id
        async (s) => (await s.transfers.retrieve(req.transferId)).reversals.data.find((r) => r.metadata?.reversal_id === req.id),
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

/** Keys one create may walk through (createOnce): more than a job's retries (graphile-worker: 25). */
export const STRIPE_MAX_KEYS = 30;

/**
 * Stripe's rule for a seller's service agreement: a seller in another country than the platform's can
 * only be paid under the `recipient` agreement (cross-border payouts); in the platform's country it
 * is the marketplace's choice (`payout_service_agreement`, default `full`).
 */
export function serviceAgreementFor(sellerCountry: string, platformCountry: string, sameCountry: 'full' | 'recipient' = 'full'): 'full' | 'recipient' {
  return sellerCountry.toUpperCase() === platformCountry.toUpperCase() ? sameCountry : 'recipient';
}

/** The seller's share of a charge, in the currency it settled in: the same fraction of the settled amount, rounded down (never more than the charge brought). */
export function settledShare(share: number, charged: number, settled: number): number {
  return Number((BigInt(share) * BigInt(settled)) / BigInt(charged));
}
