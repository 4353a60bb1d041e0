import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * Test support: a local server speaking the part of Stripe's HTTP API the payments adapter uses, so
 * the real `stripe` package is exercised without a network (as the Resend adapter's contract test
 * does with Resend's API): form-encoded bodies, `Idempotency-Key` replays (and refusal of a key
 * reused with other parameters), PaymentIntents (create, retrieve, cancel, confirm with Stripe's test
 * cards), refunds, errors in Stripe's shape, and webhook deliveries signed like Stripe's
 * (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.payload")`). Webhook endpoints are Stripe's:
 * a platform endpoint gets the platform's own events, a Connect endpoint (`connect: true`) only the
 * events of connected accounts (which carry `account`), each signed with its own secret; endpoints
 * can be created and listed through the API (`/v1/webhook_endpoints`), as the go-live check reads
 * them, beside the platform's own account (`GET /v1/account`) and whether Connect is enabled.
 * Faults can be injected to play an outage. Only for tests; it keeps everything in memory.
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
  /** the next `count` API requests fail with this status (500, 503, 429) or never answer ('hang') */
  failNext(count: number, status: number | 'hang'): void;
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

export async function startStripeTestServer(opts: { apiKey?: string } = {}): Promise<StripeTestServer> {
  const apiKey = opts.apiKey ?? `sk_test_${randomBytes(12).toString('hex')}`;
  const intents = new Map<string, Obj>();
  const charges = new Map<string, Obj>();
  const accounts = new Map<string, Obj>();
  const transfers: Obj[] = [];
  const accountSessions: Obj[] = [];
  const livemode = apiKey.startsWith('sk_live_');
  let platformAccount: Obj = {
    id: newId('acct'),
    object: 'account',
    country: 'SE',
    default_currency: 'sek',
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
  const faults: (number | 'hang')[] = [];
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
      { id, object: 'event', api_version: '2025-01-01', created: Math.floor(Date.now() / 1000), type, livemode, pending_webhooks: 1, ...(opts.account && { account: opts.account }), data: { object } },
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
    if (method === 'GET' && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) return intent(m[1]!);
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
    throw new StripeFailure(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

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
    const requested = ((form.capabilities as Obj | undefined)?.transfers as Obj | undefined)?.requested === 'true';
    const due = ['business_profile.url', 'external_account', 'tos_acceptance.date'];
    const account: Obj = {
      id: newId('acct'),
      object: 'account',
      country: form.country,
      business_type: form.business_type ?? null,
      email: form.email ?? null,
      metadata: form.metadata ?? {},
      controller: { ...controller, type: 'application', is_controller: true },
      capabilities: requested ? { transfers: 'inactive' } : {},
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
    if (charge && charge.currency !== form.currency) throw invalid(`The currency of source_transaction's balance transaction (${String(charge.currency)}) must be the same as the transfer currency (${String(form.currency)}).`, { param: 'currency' });
    if (charge && amount > (charge.amount as number)) throw invalid('Transfer amount exceeds the source transaction.', { param: 'amount' });
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
    const charge: Obj = { id: newId('ch'), object: 'charge', amount: pi.amount, amount_refunded: 0, refunded: false, currency: pi.currency, payment_intent: pi.id, metadata: pi.metadata, transfer_group: pi.transfer_group, status: 'succeeded' };
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
    return { id: newId('re'), object: 'refund', amount, charge: charge.id, payment_intent: pi.id, currency: pi.currency, status: 'succeeded' };
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const send = (status: number, body: string, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req'), ...headers }).end(body);
    const fault = faults.shift();
    if (fault === 'hang') return void hanging.add(res);
    if (fault !== undefined) return send(fault, JSON.stringify({ error: { type: fault === 429 ? 'rate_limit_error' : 'api_error', message: `injected ${fault}` } }));
    if (req.headers.authorization !== `Bearer ${apiKey}`) return send(401, JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }));
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    const path = url.pathname;
    const key = method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const fingerprint = `${method} ${path} ${raw}`;
    if (typeof key === 'string') {
      const earlier = idempotency.get(key);
      if (earlier && earlier.fingerprint !== fingerprint) {
        return send(400, JSON.stringify({ error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}'.` } }));
      }
      if (earlier) return send(earlier.status, earlier.body, { 'idempotent-replayed': 'true' });
    }
    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(route(method, path, parseForm(raw), url.searchParams));
    } catch (e) {
      if (!(e instanceof StripeFailure)) throw e;
      status = e.status;
      body = JSON.stringify({ error: e.body });
    }
    if (typeof key === 'string') idempotency.set(key, { fingerprint, status, body });
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
    failNext: (count, status) => faults.push(...Array.from({ length: count }, () => status)),
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
