import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { STRIPE_API_VERSION } from '../payments/adapters/stripe-payments.js';
import { invalid, missingOf, newId, newStripeState, StripeFailure, type Obj, type StripeTestEvent, type StripeTestPlatform } from './stripe-test-state.js';
import { stripePayments } from './stripe-test-payments.js';
import { stripeConnect } from './stripe-test-connect.js';
import { stripeWebhooks } from './stripe-test-webhooks.js';

export type { StripeTestEvent, StripeTestPlatform } from './stripe-test-state.js';

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
 * is enabled. Only for tests; it keeps everything in memory. This file is the HTTP side (idempotency,
 * faults, the request log) and the router; each resource family answers its own requests
 * (stripe-test-payments.ts, stripe-test-connect.ts, stripe-test-webhooks.ts) over the state of
 * stripe-test-state.ts.
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

export async function startStripeTestServer(opts: { apiKey?: string; apiVersion?: string; platform?: StripeTestPlatform } = {}): Promise<StripeTestServer> {
  const apiKey = opts.apiKey ?? `sk_test_${randomBytes(12).toString('hex')}`;
  // the version events are rendered in (a webhook endpoint's setting); requests say theirs in Stripe-Version
  const apiVersion = opts.apiVersion ?? STRIPE_API_VERSION;
  const state = newStripeState(apiKey.startsWith('sk_live_'), opts.platform);
  const { intents, accounts, transfers, accountSessions } = state;
  const webhooks = stripeWebhooks(state, apiVersion);
  const { emit, endpoints, events } = webhooks;
  // Stripe's resource families, each answering its own requests
  const families = [stripePayments(state, emit), stripeConnect(state, emit), webhooks.route];
  const idempotency = new Map<string, { fingerprint: string; status: number; body: string }>();
  const faults: { status: number | 'hang'; afterWork: boolean; code?: string; message?: string; on?: string }[] = [];
  const requests: StripeTestRequest[] = [];
  const refusals: { path: string; code: string }[] = [];
  const hanging = new Set<ServerResponse>();

  function route(method: string, path: string, form: Obj, query: URLSearchParams): Obj {
    const refusal = refusals.findIndex((r) => method === 'POST' && r.path === path);
    if (refusal >= 0) {
      const { code } = refusals.splice(refusal, 1)[0]!;
      throw invalid(`Refused for the test (${code}).`, { code });
    }
    for (const family of families) {
      const answer = family(method, path, form, query);
      if (answer !== undefined) return answer;
    }
    throw new StripeFailure(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
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
    sendWebhooksTo: (url, secret, opts = {}) => void webhooks.addEndpoint({ url, enabled_events: ['*'], connect: opts.connect === true }, secret),
    events,
    emit,
    platform: (changes = {}) => (state.platformAccount = { ...state.platformAccount, ...changes }),
    setConnectEnabled: (enabled) => void (state.connectEnabled = enabled),
    webhookEndpoints: endpoints,
    redeliver: (id) => webhooks.deliver(events.find((e) => e.id === id)!),
    settled: webhooks.settled,
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

