import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { STRIPE_API_VERSION } from '../payments/adapters/stripe-payments.js';

/**
 * Test support: a local server speaking the part of Stripe's HTTP API the payments adapter uses, so
 * the real `stripe` package is exercised without a network (as the Resend adapter's contract test
 * does with Resend's API): form-encoded bodies, `Idempotency-Key` replays as Stripe does them (the
 * first answer of an executed request stored for good, 5xx included, replayed with
 * `Idempotent-Replayed: true`; a key reused with other parameters an `idempotency_error`; a 429
 * stored nowhere), PaymentIntents (create, retrieve with `latest_charge.balance_transaction`
 * expanded, cancel, confirm with Stripe's test cards), charges settled in the platform's currencies
 * (others converted), refunds and transfers (made and listed), connected accounts under Stripe's
 * service-agreement rules, the platform's own account, errors in Stripe's shape, and webhook
 * deliveries signed like Stripe's (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.payload")`,
 * events in the pinned API version). Every request is recorded (`requests`); faults can be injected
 * to play an outage or a refusal. Webhook endpoints are Stripe's: a platform endpoint gets the
 * platform's own events, a Connect endpoint (`connect: true`) only the events of connected accounts
 * (which carry `account`), each signed with its own secret; endpoints can be created and listed
 * through the API (`/v1/webhook_endpoints`), as the go-live check reads them, beside whether Connect
 * is enabled. Only for tests; it keeps everything in memory.
 */
export interface StripeTestServer {
  url: string;
  apiKey: string;
  /**
   * Deliver events to this URL, signed with this secret (until then events are only kept): the
   * platform's events, or with `connect` the connected accounts' events (as a Connect endpoint).
   * Registered as a webhook endpoint for every event type (`*`).
   */
  sendWebhooksTo(url: string, secret: string, opts?: { connect?: boolean }): void;
  /** every event made so far, oldest first */
  events: StripeTestEvent[];
  /** makes an event of any type (disputes, types we do not handle …) and delivers it; `account`: it happened on that connected account */
  emit(type: string, object: Record<string, unknown>, opts?: { account?: string }): StripeTestEvent;
  /** the platform's own account as `GET /v1/account` answers it; `changes` are merged in (country, charges_enabled …) */
  platform(changes?: Record<string, unknown>): Record<string, unknown>;
  /** whether the platform signed up for Connect (default true): without it account calls are refused as Stripe refuses them */
  setConnectEnabled(enabled: boolean): void;
  /** every webhook endpoint, with its secret */
  webhookEndpoints: Record<string, unknown>[];
  /** delivers an event again, as Stripe does when an endpoint did not answer 2xx */
  redeliver(eventId: string): void;
  /** resolves once every delivery so far was answered; their statuses, oldest first */
  settled(): Promise<{ eventId: string; type: string; status: number }[]>;
  /**
   * The next `count` API requests fail with this status (500, 503, 429) or never answer ('hang').
   * As at Stripe, a 5xx is an answer of a request whose execution began: stored under its
   * Idempotency-Key and replayed for 24 h (`Idempotent-Replayed: true`, `Stripe-Should-Retry:
   * false`); `afterWork` plays a 5xx that comes after the object was made. A 429 is refused before
   * execution and stored nowhere. `on` (`POST /v1/transfers`): only requests to that method and path.
   */
  failNext(count: number, status: number | 'hang', opts?: { afterWork?: boolean; code?: string; message?: string; on?: string }): void;
  /** every API request received, oldest first: method, path, its parameters decoded (query or form body), Stripe-Version and Idempotency-Key */
  requests: StripeTestRequest[];
  /** the next POST to `path` is refused as Stripe refuses an invalid request (400 with this code), and that answer is stored under its idempotency key as Stripe does */
  refuseNext(path: string, code: string): void;
  /** the PaymentIntent as the server holds it */
  paymentIntent(id: string): Record<string, unknown> | undefined;
  /** a connected account as the server holds it */
  account(id: string): Record<string, unknown> | undefined;
  /** changes a connected account as Stripe does while the seller onboards, and sends `account.updated` */
  updateAccount(id: string, changes: Record<string, unknown>): StripeTestEvent;
  /** every transfer made, oldest first */
  transfers: Record<string, unknown>[];
  /** every account session made, oldest first */
  accountSessions: Record<string, unknown>[];
  close(): Promise<void>;
}

export interface StripeTestRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  stripeVersion?: string;
  idempotencyKey?: string;
  /** the answer's status (0: never answered) and whether it was a replay of a stored answer */
  status: number;
  replayed: boolean;
}

export interface StripeTestEvent {
  id: string;
  type: string;
  payload: string;
  /** the connected account it happened on (Connect events) */
  account?: string;
}

type Obj = Record<string, unknown>;
class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: Obj,
  ) {
    super(String(body.message));
  }
}
const invalid = (message: string, extra: Obj = {}) => new StripeFailure(400, { type: 'invalid_request_error', message, ...extra });
const missing = (what: string, id: string) => new StripeFailure(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'`, param: 'id' });
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export interface StripeTestPlatform {
  /** the platform account's country (default SE) */
  country?: string;
  /** currencies the platform settles in, lower case, the first its default (default ['sek']); a charge in another is converted to the default */
  settles?: string[];
  /** minor units of the default currency per minor unit of another (default { eur: 11, usd: 10, jpy: 7 }) */
  rates?: Record<string, number>;
  /** Stripe approved the platform for `transfers` without `card_payments` under the full agreement (default false) */
  transfersOnlyApproved?: boolean;
}

export async function startStripeTestServer(opts: { apiKey?: string; apiVersion?: string; platform?: StripeTestPlatform } = {}): Promise<StripeTestServer> {
  const apiKey = opts.apiKey ?? `sk_test_${randomBytes(12).toString('hex')}`;
  // the version events are rendered in (a webhook endpoint's setting); requests say theirs in Stripe-Version
  const apiVersion = opts.apiVersion ?? STRIPE_API_VERSION;
  const intents = new Map<string, Obj>();
  const charges = new Map<string, Obj>();
  const accounts = new Map<string, Obj>();
  const settles = opts.platform?.settles ?? ['sek'];
  const rates = opts.platform?.rates ?? { eur: 11, usd: 10, jpy: 7 };
  const balanceTransactions = new Map<string, Obj>();
  /** A charge's balance transaction: in its own currency when the platform settles in it, else converted to the default currency. */
  const settle = (amount: number, currency: string): Obj => {
    const converted = !settles.includes(currency);
    const rate = converted ? rates[currency] : 1;
    if (rate === undefined) throw new Error(`stripe test server: no rate for ${currency}`);
    const bt: Obj = { id: newId('txn'), object: 'balance_transaction', amount: amount * rate, currency: converted ? settles[0] : currency, exchange_rate: converted ? rate : null, type: 'charge' };
    balanceTransactions.set(bt.id as string, bt);
    return bt;
  };
  const transfers: Obj[] = [];
  const accountSessions: Obj[] = [];
  const livemode = apiKey.startsWith('sk_live_');
  let platformAccount: Obj = {
    id: newId('acct'),
    object: 'account',
    country: opts.platform?.country ?? 'SE',
    default_currency: settles[0],
    charges_enabled: true,
    payouts_enabled: true,
    details_submitted: true,
    type: 'standard',
    business_profile: { name: 'Platform' },
    metadata: {},
  };
  let connectEnabled = true;
  const endpoints: Obj[] = [];
  const idempotency = new Map<string, { fingerprint: string; status: number; body: string }>();
  const events: StripeTestEvent[] = [];
  const delivered: { eventId: string; type: string; status: number }[] = [];
  const faults: { status: number | 'hang'; afterWork: boolean; code?: string; message?: string; on?: string }[] = [];
  const requests: StripeTestRequest[] = [];
  const refunds: Obj[] = [];
  const refusals: { path: string; code: string }[] = [];
  const hanging = new Set<ServerResponse>();
  let deliveries: Promise<unknown> = Promise.resolve();

  /** Stripe's routing: a connected account's event to the Connect endpoints, the platform's to the others; each only for the types it enabled. */
  const endpointsFor = (event: StripeTestEvent) =>
    endpoints.filter((e) => e.status === 'enabled' && e.connect === (event.account !== undefined) && ((e.enabled_events as string[]).includes('*') || (e.enabled_events as string[]).includes(event.type)));
  const deliver = (event: StripeTestEvent) => {
    for (const endpoint of endpointsFor(event)) {
      const url = String(endpoint.url);
      const secret = String(endpoint.secret);
      deliveries = deliveries.then(async () => {
        const t = Math.floor(Date.now() / 1000);
        const v1 = createHmac('sha256', secret).update(`${t}.${event.payload}`).digest('hex');
        const status = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': `t=${t},v1=${v1}` }, body: event.payload }).then(
          (r) => r.status,
          () => 0,
        );
        delivered.push({ eventId: event.id, type: event.type, status });
      });
    }
  };
  const addEndpoint = (form: Obj, secret = `whsec_${randomBytes(16).toString('hex')}`): Obj => {
    if (typeof form.url !== 'string' || !/^https?:\/\//.test(form.url)) throw invalid('Invalid URL: the url must be an http(s) URL.', { param: 'url' });
    const enabled = Array.isArray(form.enabled_events) ? form.enabled_events : Object.values((form.enabled_events ?? {}) as Obj);
    if (enabled.length === 0) throw invalid('Missing required param: enabled_events.', { param: 'enabled_events' });
    const endpoint: Obj = {
      id: newId('we'),
      object: 'webhook_endpoint',
      url: form.url,
      enabled_events: enabled.map(String),
      api_version: form.api_version ?? null,
      application: null,
      description: form.description ?? null,
      livemode,
      metadata: form.metadata ?? {},
      status: 'enabled',
      created: Math.floor(Date.now() / 1000),
      secret,
      connect: form.connect === 'true' || form.connect === true,
    };
    if (endpoint.connect && !connectEnabled) throw notConnect();
    endpoints.push(endpoint);
    return endpoint;
  };
  const notConnect = () =>
    invalid("You can only create new accounts if you've signed up for Connect, which you can learn how to do at https://stripe.com/docs/connect.", { code: 'platform_account_required' });
  const emit = (type: string, object: Obj, opts: { account?: string } = {}): StripeTestEvent => {
    const id = newId('evt');
    const payload = JSON.stringify(
      { id, object: 'event', api_version: apiVersion, created: Math.floor(Date.now() / 1000), type, livemode, pending_webhooks: 1, ...(opts.account && { account: opts.account }), data: { object } },
      null,
      2,
    );
    const event: StripeTestEvent = { id, type, payload, ...(opts.account && { account: opts.account }) };
    events.push(event);
    deliver(event);
    return event;
  };

  const intent = (id: string) => intents.get(id) ?? missingIntent(id);
  /** A PaymentIntent moves by replacing it with its next version (as Stripe's API returns a new object per change). */
  const nextVersion = (pi: Obj, changes: Obj): Obj => {
    const next = { ...pi, ...changes };
    intents.set(pi.id as string, next);
    return next;
  };
  const missingIntent = (id: string): never => {
    throw missing('payment_intent', id);
  };
  const unexpectedState = (pi: Obj, action: string) =>
    invalid(`You cannot ${action} this PaymentIntent because it has a status of ${String(pi.status)}.`, { code: 'payment_intent_unexpected_state', payment_intent: pi });

  function route(method: string, path: string, form: Obj, query: URLSearchParams): Obj {
    let m: RegExpExecArray | null;
    const refusal = refusals.findIndex((r) => method === 'POST' && r.path === path);
    if (refusal >= 0) {
      const { code } = refusals.splice(refusal, 1)[0]!;
      throw invalid(`Refused for the test (${code}).`, { code });
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const amount = Number(form.amount);
      if (!Number.isSafeInteger(amount) || amount < 1) throw invalid('Amount must be at least 1.', { code: 'amount_too_small', param: 'amount' });
      if (typeof form.currency !== 'string' || !/^[a-z]{3}$/.test(form.currency)) throw invalid(`Invalid currency: ${String(form.currency)}.`, { param: 'currency' });
      const id = newId('pi');
      const pi: Obj = {
        id,
        object: 'payment_intent',
        amount,
        amount_received: 0,
        currency: form.currency,
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
        automatic_payment_methods: { enabled: (form.automatic_payment_methods as Obj | undefined)?.enabled === 'true', allow_redirects: 'always' },
        metadata: form.metadata ?? {},
        transfer_group: form.transfer_group ?? null,
        latest_charge: null,
        last_payment_error: null,
        cancellation_reason: null,
        created: Math.floor(Date.now() / 1000),
        livemode,
      };
      intents.set(id, pi);
      return pi;
    }
    if (method === 'GET' && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) return expanded(intent(m[1]!), form.expand);
    if (method === 'POST' && (m = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path))) {
      const pi = intent(m[1]!);
      if (pi.status === 'succeeded' || pi.status === 'canceled' || pi.status === 'processing') throw unexpectedState(pi, 'cancel');
      const canceled = nextVersion(pi, { status: 'canceled', cancellation_reason: form.cancellation_reason ?? 'requested_by_customer' });
      emit('payment_intent.canceled', canceled);
      return canceled;
    }
    if (method === 'POST' && (m = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path))) return confirm(intent(m[1]!), form);
    if (method === 'POST' && path === '/v1/refunds') return refund(form);
    if (method === 'GET' && path === '/v1/account') return platformAccount;
    if (method === 'GET' && path === '/v1/webhook_endpoints') return { object: 'list', url: path, has_more: false, data: endpoints.map(({ secret: _, ...e }) => e) };
    if (method === 'POST' && path === '/v1/webhook_endpoints') return addEndpoint(form);
    if (path === '/v1/accounts' && !connectEnabled) throw notConnect();
    if (method === 'GET' && path === '/v1/accounts') return { object: 'list', url: path, has_more: false, data: [...accounts.values()].slice(0, Number(query.get('limit') ?? 10)) };
    if (method === 'POST' && path === '/v1/accounts') return createAccount(form);
    if (method === 'GET' && (m = /^\/v1\/accounts\/([^/]+)$/.exec(path))) return accounts.get(m[1]!) ?? missingOf('account', m[1]!);
    if (method === 'POST' && path === '/v1/account_sessions') return createAccountSession(form);
    if (method === 'POST' && path === '/v1/transfers') return createTransfer(form);
    if (method === 'POST' && (m = /^\/v1\/transfers\/([^/]+)\/reversals$/.exec(path))) return reverseTransfer(m[1]!, form);
    if (method === 'GET' && (m = /^\/v1\/transfers\/([^/]+)$/.exec(path))) return transfers.find((t) => t.id === m![1]) ?? missingOf('transfer', m[1]!);
    if (method === 'GET' && path === '/v1/transfers') return list('/v1/transfers', transfers.filter((t) => form.transfer_group === undefined || t.transfer_group === form.transfer_group));
    if (method === 'GET' && path === '/v1/refunds') return list('/v1/refunds', refunds.filter((r) => form.payment_intent === undefined || r.payment_intent === form.payment_intent));
    throw new StripeFailure(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  /** `expand[]=latest_charge` and `expand[]=latest_charge.balance_transaction`, the expansions the adapter asks for */
  const expanded = (pi: Obj, expand: unknown): Obj => {
    // the SDK sends arrays as `expand[0]=…`
    const paths = expand === undefined ? [] : typeof expand === 'object' && expand !== null ? Object.values(expand).map(String) : [String(expand)];
    for (const p of paths) if (p !== 'latest_charge' && p !== 'latest_charge.balance_transaction') throw invalid(`This property cannot be expanded (${p}).`, { param: 'expand' });
    if (!paths.length || typeof pi.latest_charge !== 'string') return pi;
    const charge = { ...charges.get(pi.latest_charge)! };
    if (paths.includes('latest_charge.balance_transaction')) charge.balance_transaction = balanceTransactions.get(charge.balance_transaction as string);
    return { ...pi, latest_charge: charge };
  };

  /** a list in Stripe's shape, newest first (this server never pages: tests make few objects) */
  const list = (url: string, data: Obj[]): Obj => ({ object: 'list', url, has_more: false, data: [...data].reverse() });

  const missingOf = (what: string, id: string): never => {
    throw missing(what, id);
  };

  function createAccount(form: Obj): Obj {
    const controller = (form.controller ?? {}) as Obj;
    if (typeof form.country !== 'string' || !/^[A-Z]{2}$/.test(form.country)) throw invalid(`Country '${String(form.country)}' is unknown.`, { param: 'country' });
    if (form.business_type !== undefined && form.business_type !== 'individual' && form.business_type !== 'company') throw invalid('Invalid business_type.', { param: 'business_type' });
    // Stripe: a platform that collects requirements must also pay the fees, carry the losses and give no Stripe dashboard
    if (controller.requirement_collection === 'application') {
      const fees = (controller.fees as Obj | undefined)?.payer;
      const losses = (controller.losses as Obj | undefined)?.payments;
      const dashboard = (controller.stripe_dashboard as Obj | undefined)?.type;
      if (fees !== 'application' || losses !== 'application' || dashboard !== 'none') {
        throw invalid('When controller[requirement_collection] is application, controller[fees][payer] and controller[losses][payments] must be application and controller[stripe_dashboard][type] none.', { param: 'controller' });
      }
    }
    const capabilities = (form.capabilities ?? {}) as Record<string, Obj>;
    const requestedOf = (name: string) => capabilities[name]?.requested === 'true';
    const requested = requestedOf('transfers');
    // Stripe's service agreements: cross-border payouts only under `recipient`; `recipient` accounts take
    // no payments; `transfers` without `card_payments` under `full` only for platforms Stripe approved
    const agreement = ((form.tos_acceptance as Obj | undefined)?.service_agreement as string | undefined) ?? 'full';
    if (agreement !== 'full' && agreement !== 'recipient') throw invalid(`Invalid tos_acceptance[service_agreement]: must be one of full or recipient.`, { param: 'tos_acceptance[service_agreement]' });
    if (form.country !== platformAccount.country && agreement !== 'recipient') {
      throw invalid(`Connected accounts in ${String(form.country)} cannot be created by platforms in ${String(platformAccount.country)} under the full service agreement: use tos_acceptance[service_agreement]=recipient for cross-border payouts.`, { param: 'tos_acceptance[service_agreement]' });
    }
    if (agreement === 'recipient' && requestedOf('card_payments')) throw invalid('Accounts under the recipient service agreement cannot request the card_payments capability.', { param: 'capabilities[card_payments]' });
    if (agreement === 'full' && requested && !requestedOf('card_payments') && !opts.platform?.transfersOnlyApproved) {
      throw invalid('Requesting the transfers capability without card_payments under the full service agreement requires Stripe to approve your platform. Request card_payments too, or use the recipient service agreement.', { param: 'capabilities' });
    }
    const due = ['business_profile.url', 'external_account', 'tos_acceptance.date'];
    const account: Obj = {
      id: newId('acct'),
      object: 'account',
      country: form.country,
      business_type: form.business_type ?? null,
      email: form.email ?? null,
      metadata: form.metadata ?? {},
      controller: { ...controller, type: 'application', is_controller: true },
      capabilities: Object.fromEntries(Object.keys(capabilities).filter(requestedOf).map((name) => [name, 'inactive'])),
      tos_acceptance: { service_agreement: agreement },
      details_submitted: false,
      charges_enabled: false,
      payouts_enabled: false,
      requirements: { currently_due: due, eventually_due: due, past_due: [], pending_verification: [], disabled_reason: 'requirements.past_due' },
      created: Math.floor(Date.now() / 1000),
    };
    accounts.set(account.id as string, account);
    return account;
  }

  function createAccountSession(form: Obj): Obj {
    const account = accounts.get(String(form.account)) ?? missingOf('account', String(form.account));
    const components = (form.components ?? {}) as Record<string, Obj>;
    if (!Object.values(components).some((c) => c.enabled === 'true')) throw invalid('You must enable at least one component.', { param: 'components' });
    const session: Obj = {
      object: 'account_session',
      account: account.id,
      client_secret: `accs_secret__${randomBytes(24).toString('hex')}`,
      expires_at: Math.floor(Date.now() / 1000) + 1800,
      livemode,
      components: Object.fromEntries(Object.entries(components).map(([name, c]) => [name, { enabled: c.enabled === 'true', features: {} }])),
    };
    accountSessions.push(session);
    return session;
  }

  function createTransfer(form: Obj): Obj {
    const amount = Number(form.amount);
    if (!Number.isSafeInteger(amount) || amount < 1) throw invalid('Amount must be at least 1.', { param: 'amount' });
    const account = accounts.get(String(form.destination)) ?? missingOf('account', String(form.destination));
    if ((account.capabilities as Obj).transfers !== 'active') {
      throw invalid('Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments', { code: 'insufficient_capabilities_for_transfer', param: 'destination' });
    }
    const charge = form.source_transaction === undefined ? undefined : (charges.get(String(form.source_transaction)) ?? missingOf('charge', String(form.source_transaction)));
    const settled = charge && balanceTransactions.get(charge.balance_transaction as string)!;
    if (settled && settled.currency !== form.currency) throw invalid(`The currency of source_transaction's balance transaction (${String(settled.currency)}) must be the same as the transfer currency (${String(form.currency)}).`, { param: 'currency' });
    if (settled && amount > (settled.amount as number)) throw invalid('Transfer amount exceeds the source transaction.', { param: 'amount' });
    const transfer: Obj = {
      id: newId('tr'),
      object: 'transfer',
      amount,
      currency: form.currency,
      destination: account.id,
      transfer_group: form.transfer_group ?? null,
      source_transaction: charge?.id ?? null,
      metadata: form.metadata ?? {},
      amount_reversed: 0,
      reversed: false,
      reversals: { object: 'list', data: [], has_more: false },
      created: Math.floor(Date.now() / 1000),
    };
    transfers.push(transfer);
    return transfer;
  }

  /** A Transfer Reversal: never more than is left of the transfer; the transfer (with its reversals) is sent as `transfer.reversed`. */
  function reverseTransfer(id: string, form: Obj): Obj {
    const transfer = transfers.find((t) => t.id === id) ?? missingOf('transfer', id);
    const left = (transfer.amount as number) - (transfer.amount_reversed as number);
    const amount = form.amount === undefined ? left : Number(form.amount);
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > left) throw invalid(`Transfer reversal amount (${amount}) is greater than the unreversed amount of the transfer (${left}).`, { param: 'amount' });
    const reversal: Obj = { id: newId('trr'), object: 'transfer_reversal', amount, currency: transfer.currency, transfer: id, metadata: form.metadata ?? {}, created: Math.floor(Date.now() / 1000) };
    const list = transfer.reversals as { data: Obj[] };
    Object.assign(transfer, { amount_reversed: (transfer.amount_reversed as number) + amount, reversed: (transfer.amount_reversed as number) + amount === transfer.amount, reversals: { ...list, data: [reversal, ...list.data] } });
    emit('transfer.reversed', transfer);
    return reversal;
  }

  function confirm(pi: Obj, form: Obj): Obj {
    if (pi.status === 'succeeded' || pi.status === 'canceled') throw unexpectedState(pi, 'confirm');
    if ((pi.automatic_payment_methods as Obj).enabled && !form.return_url) {
      throw invalid('This PaymentIntent is configured to accept payment methods enabled in your Dashboard, some of which may require a full page redirect to succeed. Pass a return_url.', { param: 'return_url' });
    }
    const method = form.payment_method;
    if (method === 'pm_card_visa_chargeDeclined' || method === 'pm_card_chargeDeclined') {
      const error = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
      const declined = nextVersion(pi, { status: 'requires_payment_method', last_payment_error: error });
      emit('payment_intent.payment_failed', declined);
      throw new StripeFailure(402, { ...error, payment_intent: declined });
    }
    if (method !== 'pm_card_visa') throw invalid(`No such PaymentMethod: '${String(method)}'`, { code: 'resource_missing', param: 'payment_method' });
    const charge: Obj = {
      id: newId('ch'),
      object: 'charge',
      amount: pi.amount,
      amount_refunded: 0,
      refunded: false,
      currency: pi.currency,
      balance_transaction: settle(pi.amount as number, pi.currency as string).id,
      payment_intent: pi.id,
      metadata: pi.metadata,
      transfer_group: pi.transfer_group,
      status: 'succeeded',
    };
    charges.set(charge.id as string, charge);
    const paid = nextVersion(pi, { status: 'succeeded', amount_received: pi.amount, latest_charge: charge.id, last_payment_error: null, payment_method: method });
    emit('payment_intent.succeeded', paid);
    return paid;
  }

  function refund(form: Obj): Obj {
    const pi = intent(String(form.payment_intent ?? ''));
    const charge = charges.get(String(pi.latest_charge));
    if (pi.status !== 'succeeded' || !charge) throw invalid(`This PaymentIntent (${String(pi.id)}) does not have a successful charge to refund.`, { code: 'charge_not_refundable' });
    const left = (charge.amount as number) - (charge.amount_refunded as number);
    if (left === 0) throw invalid(`Charge ${String(charge.id)} has already been refunded.`, { code: 'charge_already_refunded' });
    const amount = form.amount === undefined ? left : Number(form.amount);
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > left) throw invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left}).`, { param: 'amount' });
    Object.assign(charge, { amount_refunded: (charge.amount_refunded as number) + amount, refunded: (charge.amount_refunded as number) + amount === charge.amount });
    emit('charge.refunded', charge);
    const made: Obj = { id: newId('re'), object: 'refund', amount, charge: charge.id, payment_intent: pi.id, currency: pi.currency, metadata: form.metadata ?? {}, status: 'succeeded', created: Math.floor(Date.now() / 1000) };
    refunds.push(made);
    return made;
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const method = req.method ?? 'GET';
    const [path, query = ''] = (req.url ?? '/').split('?') as [string, string?];
    const key = method === 'POST' && typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    const params = parseForm(method === 'GET' ? query : raw);
    const seen: StripeTestRequest = { method, path, params, ...(typeof req.headers['stripe-version'] === 'string' && { stripeVersion: req.headers['stripe-version'] }), ...(key && { idempotencyKey: key }), status: 0, replayed: false };
    requests.push(seen);
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      seen.status = status;
      seen.replayed = headers['idempotent-replayed'] === 'true';
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req'), ...headers }).end(body);
    };
    const at = faults.findIndex((f) => f.on === undefined || f.on === `${method} ${path}`);
    const fault = at < 0 ? undefined : faults.splice(at, 1)[0];
    if (fault?.status === 'hang') return void hanging.add(res);
    // rate limiting refuses before any work: nothing is stored under the key
    if (fault?.status === 429) return send(429, JSON.stringify({ error: { type: 'rate_limit_error', message: 'injected 429' } }));
    if (req.headers.authorization !== `Bearer ${apiKey}`) return send(401, JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }));
    const fingerprint = `${method} ${path} ${raw}`;
    if (key) {
      const earlier = idempotency.get(key);
      if (earlier && earlier.fingerprint !== fingerprint) {
        return send(400, JSON.stringify({ error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}'.` } }));
      }
      // Stripe replays what it stored, 500s included, and tells its SDKs not to retry them
      if (earlier) return send(earlier.status, earlier.body, { 'idempotent-replayed': 'true', ...(earlier.status >= 500 && { 'stripe-should-retry': 'false' }) });
    }
    let status = 200;
    let body: string;
    try {
      // an injected 4xx is a refusal in Stripe's shape (with the code asked for), a 5xx a server error
      const injected = (f: NonNullable<typeof fault>, after: string) =>
        new StripeFailure(f.status as number, { type: (f.status as number) >= 500 ? 'api_error' : 'invalid_request_error', message: f.message ?? `injected ${String(f.status)}${after}`, ...(f.code && { code: f.code }) });
      if (fault && !fault.afterWork) throw injected(fault, '');
      body = JSON.stringify(route(method, path, params, new URLSearchParams(query)));
      if (fault) throw injected(fault, ' after the work was done');
    } catch (e) {
      if (!(e instanceof StripeFailure)) throw e;
      status = e.status;
      body = JSON.stringify({ error: e.body });
    }
    if (key) idempotency.set(key, { fingerprint, status, body });
    send(status, body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: Error) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'api_error', message: e.message } })));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    sendWebhooksTo: (url, secret, opts = {}) => void addEndpoint({ url, enabled_events: ['*'], connect: opts.connect === true }, secret),
    events,
    emit,
    platform: (changes = {}) => (platformAccount = { ...platformAccount, ...changes }),
    setConnectEnabled: (enabled) => void (connectEnabled = enabled),
    webhookEndpoints: endpoints,
    redeliver: (id) => deliver(events.find((e) => e.id === id)!),
    settled: async () => {
      for (let before; before !== deliveries; ) await (before = deliveries);
      return [...delivered];
    },
    failNext: (count, status, o) => faults.push(...Array.from({ length: count }, () => ({ status, afterWork: o?.afterWork ?? false, ...(o?.code && { code: o.code }), ...(o?.message && { message: o.message }), ...(o?.on && { on: o.on }) }))),
    requests,
    refuseNext: (path, code) => refusals.push({ path, code }),
    paymentIntent: (id) => intents.get(id),
    account: (id) => accounts.get(id),
    updateAccount: (id, changes) => {
      const next = { ...(accounts.get(id) ?? missingOf('account', id)), ...changes };
      accounts.set(id, next);
      return emit('account.updated', next, { account: id });
    },
    transfers,
    accountSessions,
    close: async () => {
      hanging.forEach((r) => r.destroy());
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Stripe's form encoding: `metadata[order_id]=…`, `automatic_payment_methods[enabled]=true`. */
export function parseForm(raw: string): Obj {
  const out: Obj = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    const path = name.split(/\[|\]\[|\]$/).filter((p, i) => i === 0 || p !== '');
    let target = out;
    for (const key of path.slice(0, -1)) target = (target[key] ??= {}) as Obj;
    target[path.at(-1)!] = value;
  }
  return out;
}
