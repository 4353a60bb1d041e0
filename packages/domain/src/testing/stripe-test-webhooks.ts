/**
 * The Stripe test server's webhooks (stripe-test-server.ts): endpoints (`/v1/webhook_endpoints`,
 * platform or Connect), events in the pinned API version, and their deliveries signed like Stripe's
 * (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.payload")`).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { invalid, newId, notConnect, type Obj, type StripeRoutes, type StripeState, type StripeTestEvent } from './stripe-test-state.js';

export function stripeWebhooks(s: StripeState, apiVersion: string) {
  const endpoints: Obj[] = [];
  const events: StripeTestEvent[] = [];
  const delivered: { eventId: string; type: string; status: number }[] = [];
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
      livemode: s.livemode,
      metadata: form.metadata ?? {},
      status: 'enabled',
      created: Math.floor(Date.now() / 1000),
      secret,
      connect: form.connect === 'true' || form.connect === true,
    };
    if (endpoint.connect && !s.connectEnabled) throw notConnect();
    endpoints.push(endpoint);
    return endpoint;
  };
  const emit = (type: string, object: Obj, opts: { account?: string } = {}): StripeTestEvent => {
    const id = newId('evt');
    const payload = JSON.stringify(
      { id, object: 'event', api_version: apiVersion, created: Math.floor(Date.now() / 1000), type, livemode: s.livemode, pending_webhooks: 1, ...(opts.account && { account: opts.account }), data: { object } },
      null,
      2,
    );
    const event: StripeTestEvent = { id, type, payload, ...(opts.account && { account: opts.account }) };
    events.push(event);
    deliver(event);
    return event;
  };

  const route: StripeRoutes = (method, path, form) => {
    if (method === 'GET' && path === '/v1/webhook_endpoints') return { object: 'list', url: path, has_more: false, data: endpoints.map(({ secret: _, ...e }) => e) };
    if (method === 'POST' && path === '/v1/webhook_endpoints') return addEndpoint(form);
    return undefined;
  };

  /** resolves once every delivery so far was answered; their statuses, oldest first */
  const settled = async () => {
    for (let before; before !== deliveries; ) await (before = deliveries);
    return [...delivered];
  };

  return { endpoints, events, emit, deliver, addEndpoint, settled, route };
}
