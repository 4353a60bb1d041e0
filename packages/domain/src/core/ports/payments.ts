/**
 * Payments port: what checkout asks of a payment provider. Two adapters pass one contract suite:
 * `stripe` (the official package; any Stripe-compatible server through STRIPE_API_BASE) and `local`,
 * the offline sandbox. Every call is idempotent by our own id, so a retried job or request never makes
 * a second payment or refund.
 *
 * Confirmations never come back as a return value of createPayment: the provider sends an event
 * (Stripe: its webhook; the sandbox: the events `confirmForTest` returns), which goes down one path —
 * stored once by its id (`recordPaymentEvents`), then handled by a job.
 */
export interface PaymentRequest {
  /** our id for this payment attempt (the order id): the provider's idempotency key */
  id: string;
  marketplaceId: string;
  orderId: string;
  /** integer minor units of `currency` (the order total) */
  amount: number;
  /** ISO 4217, upper case */
  currency: string;
}

export interface CreatedPayment {
  /** the provider's payment id (Stripe: the PaymentIntent id `pi_…`) */
  providerId: string;
  /** what the buyer's payment form needs (`pi_…_secret_…`) */
  clientSecret: string;
}

export interface RefundRequest {
  /** our id for this refund: the provider's idempotency key */
  id: string;
  /** the payment's provider id */
  paymentId: string;
  /** minor units; the whole payment when omitted */
  amount?: number;
}

/** A seller's connected account, made the first time they start payout setup. */
export interface AccountRequest {
  /** our payout account id: the provider's idempotency key (one account per seller and marketplace) */
  id: string;
  marketplaceId: string;
  userId: string;
  /** ISO 3166-1 alpha-2, upper case */
  country: string;
  businessType: 'individual' | 'company';
  email?: string;
  /**
   * The marketplace's service agreement for a seller in the platform's country (`payout_service_agreement`):
   * `full` (Stripe's default; the account also gets `card_payments`) or `recipient` (transfers only).
   * A seller in another country is always under `recipient`: Stripe pays out cross-border only under it.
   */
  serviceAgreement?: 'full' | 'recipient';
}

/** Money from the platform to a seller's connected account, for one order. */
export interface TransferRequest {
  /** our id (the order id): the provider's idempotency key, so a retried job never pays twice */
  id: string;
  marketplaceId: string;
  orderId: string;
  /** the connected account */
  destination: string;
  /** integer minor units, at least 1 */
  amount: number;
  currency: string;
  /** the order's payment: its charge funds the transfer (Stripe `source_transaction`); absent when the order had nothing to pay (a voucher covered it): from the platform's balance */
  paymentId?: string;
  /**
   * How often the team retried this payout after a refusal (0: never). Each retry is a new
   * idempotency key: Stripe keeps the refusal under the old one for 24 hours, and a refusal made nothing.
   */
  retry?: number;
}

/**
 * Money taken back from a seller's transfer (Stripe: a Transfer Reversal), when the buyer got money
 * back after the seller was paid (docs/decisions.md, "Money rules").
 */
export interface TransferReversalRequest {
  /** our id for this reversal: the provider's idempotency key (one reversal per id, never a second) */
  id: string;
  marketplaceId: string;
  orderId: string;
  /** the provider's transfer id (`tr_…`) */
  transferId: string;
  /** integer minor units, at least 1, at most what is left of the transfer */
  amount: number;
}

/** Where a test helper moves a sandbox account, as the provider would. */
export interface AccountChangeForTest {
  status: 'action_required' | 'pending' | 'ready';
  /** requirement names currently due (action_required) */
  due: string[];
}

/**
 * The one list of the event types we act on or record (anything else a provider sends is stored
 * and ignored), each with the Stripe webhook endpoint that brings it: `platform` (the platform's own
 * objects) or `connect` (events on the sellers' connected accounts, sent only to a Connect
 * endpoint). The handlers' table (flows/payment-events.ts) must cover exactly these types, the
 * go-live check asks Stripe for exactly these on each endpoint, and the OpenAPI document lists them.
 */
export const HANDLED_PAYMENT_EVENTS = {
  'payment_intent.succeeded': 'platform',
  'payment_intent.payment_failed': 'platform',
  'payment_intent.canceled': 'platform',
  'charge.refunded': 'platform',
  'charge.dispute.created': 'platform',
  'charge.dispute.updated': 'platform',
  'charge.dispute.closed': 'platform',
  'charge.refund.updated': 'platform',
  'refund.failed': 'platform',
  'transfer.reversed': 'platform',
  'account.updated': 'connect',
  'payout.failed': 'connect',
} as const satisfies Record<string, 'platform' | 'connect'>;

export type PaymentEventType = keyof typeof HANDLED_PAYMENT_EVENTS;

/**
 * Where Stripe's two webhook endpoints of a deployment are, under API_URL: the platform's own events
 * and, created with `connect: true`, the events of the sellers' connected accounts, each with its own
 * signing secret (Stripe sends a connected account's events only to a Connect endpoint).
 */
export const STRIPE_WEBHOOK_PATHS = { platform: '/webhooks/stripe', connect: '/webhooks/stripe/connect' } as const;

/** The event types a Stripe webhook endpoint must be registered for. */
export const eventTypesOf = (endpoint: 'platform' | 'connect'): PaymentEventType[] =>
  (Object.keys(HANDLED_PAYMENT_EVENTS) as PaymentEventType[]).filter((type) => HANDLED_PAYMENT_EVENTS[type] === endpoint);

/** A provider's event, reduced to what we keep. `id` is the provider's event id (stored once). */
export interface PaymentEvent {
  id: string;
  provider: 'local' | 'stripe';
  /** the provider's type string (may be one we do not handle) */
  type: PaymentEventType | (string & {});
  /** the PaymentIntent the event concerns, when it concerns one */
  paymentId?: string;
  /** from the payment's metadata, when the provider kept it */
  marketplaceId?: string;
  orderId?: string;
  /** the seller's connected account the event happened on (Stripe's `account`: Connect events only); absent for the platform's own events */
  connectedAccount?: string;
  /** when the provider created the event */
  createdAt: Date;
  /** the event's object as the provider sent it (for the payouts work: refunds, disputes) */
  data: Record<string, unknown>;
}

/** A webhook endpoint as the provider has it registered (Stripe's `webhook_endpoints`). */
export interface WebhookEndpointSetup {
  url: string;
  /** a Connect endpoint (connected accounts' events) */
  connect: boolean;
  /** `*` for every type */
  enabledEvents: string[];
  /** the API version its events are rendered in; null: the account's default */
  apiVersion: string | null;
  /** `enabled` or `disabled` */
  status: string;
}

/** What the go-live check reads from the provider's account: each part, or why it could not be read. */
export interface PaymentsSetup {
  /** the key's mode (Stripe: sk_test_ / sk_live_) */
  keyMode: 'test' | 'live';
  /** the API version the adapter speaks (pinned), which the webhook endpoints must use */
  apiVersion: string;
  platform: { id: string; country: string | null; chargesEnabled: boolean; payoutsEnabled: boolean } | { error: string };
  /** whether the platform may make connected accounts (Stripe Connect signed up for) */
  connect: { enabled: true } | { enabled: false; why: string };
  webhookEndpoints: WebhookEndpointSetup[] | { error: string };
}

export interface Payments {
  readonly name: 'local' | 'stripe';
  /** The go-live check (`console doctor`): the provider account's setup, read through its API. Absent on the sandbox. */
  inspect?(): Promise<PaymentsSetup>;
  /** Starts a payment the buyer completes with `clientSecret`. Same `id` → the same payment. Rejects with PaymentError. */
  createPayment(req: PaymentRequest): Promise<CreatedPayment>;
  /** Cancels a payment never completed (the payment window ended). Idempotent; a completed one is left alone. */
  cancelPayment(paymentId: string): Promise<void>;
  /** Refunds a completed payment (a canceled paid order). Same `id` → the same refund. */
  refund(req: RefundRequest): Promise<{ providerId: string }>;
  /**
   * Test mode only (`POST /v1/test-helpers/payments/confirm`): act as the buyer and provider would for
   * the payment behind `clientSecret`. The outcome then arrives as events, never as a shortcut: the
   * sandbox returns the events it emits (the caller records them like webhook events); Stripe returns
   * none, its webhook delivers them. `null`: no such payment of `marketplaceId` (the caller answers
   * 404, so another marketplace's payment cannot be confirmed). A payment already completed or
   * canceled rejects with PaymentError `unexpected_state`.
   */
  confirmForTest(clientSecret: string, outcome: 'succeeded' | 'failed', marketplaceId: string): Promise<PaymentEvent[] | null>;

  /**
   * Seller payouts (Stripe Connect). A connected account for a seller, the platform responsible for
   * requirement collection, fees and losses, with the `transfers` capability. Same `id` → the same
   * account. Its setup status reaches us only as `account.updated` events.
   */
  createAccount(req: AccountRequest): Promise<{ providerId: string }>;
  /** A session for the embedded onboarding component (`account_onboarding`) of this account. */
  createAccountSession(accountId: string): Promise<{ clientSecret: string }>;
  /**
   * Pays a seller from an order's charge. Same `id` → the same transfer, never a second one.
   * `currency`/`amount` when the transfer is in another currency than the order's: a charge the
   * platform does not settle in its currency is converted, and a transfer from it is in the settled one.
   */
  transfer(req: TransferRequest): Promise<{ providerId: string; currency?: string; amount?: number }>;
  /**
   * Takes `amount` back from a transfer made before (the buyer got money back after the seller was
   * paid). Same `id` → the same reversal, never a second; more than is left of the transfer, or the
   * same id with another amount, is refused.
   */
  reverseTransfer(req: TransferReversalRequest): Promise<{ providerId: string }>;
  /**
   * Test mode only: moves a connected account as the provider would (sandbox: returns the
   * `account.updated` event it emits). Stripe moves accounts itself: refused.
   */
  updateAccountForTest(accountId: string, change: AccountChangeForTest): Promise<PaymentEvent[]>;
  /** Test mode only: the buyer's bank disputes the payment, or the dispute moves (created, updated, closed events). Stripe: refused. */
  disputeForTest(paymentId: string, dispute: { status: string; reason: string }): Promise<PaymentEvent[]>;
  /**
   * Test mode only: a refund made at the provider outside the service (its dashboard), which
   * arrives as `charge.refunded`. Sandbox: returns the event; Stripe: makes the refund, its webhook
   * brings the event (returns none).
   */
  refundForTest(paymentId: string, amount: number): Promise<PaymentEvent[]>;
}

/**
 * Why a provider refused, as far as the caller may act on it: `unavailable` (an outage, a timeout,
 * rate limiting: retry later), `unexpected_state` (the payment is no longer in a state that allows
 * this), `refused` (invalid request, declined card, unknown payment: retrying changes nothing).
 */
export type PaymentErrorKind = 'unavailable' | 'unexpected_state' | 'refused';

/**
 * Why a provider refused for good, in words a seller's payout can carry (`failure_reason`): the
 * connected account cannot take the transfer yet, the platform's balance is short, the currency is
 * not one the provider takes for it, or any other invalid request.
 */
export const PAYMENT_REFUSALS = ['account_not_ready', 'platform_balance_insufficient', 'currency_not_accepted', 'invalid_request'] as const;
export type PaymentRefusal = (typeof PAYMENT_REFUSALS)[number];

/** `retryable`: a provider outage or timeout (the caller answers 503 / the job retries); otherwise refused for good. */
export class PaymentError extends Error {
  readonly retryable: boolean;
  constructor(
    message: string,
    readonly kind: PaymentErrorKind,
    /** the provider's own error code, when it gave one (`card_declined`, …) */
    readonly providerCode?: string,
    /** a refusal's class (kind `refused`); `invalid_request` when the provider said nothing more */
    readonly refusal?: PaymentRefusal,
  ) {
    super(message);
    this.name = 'PaymentError';
    this.retryable = kind === 'unavailable';
  }
}
