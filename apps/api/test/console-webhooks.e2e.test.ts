import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { signUp, tokenOf } from './harness.js';
import { requestBodyValidator } from './openapi-validator.js';
import { startReceiver, type Received } from './webhook-receiver.js';
import { ordersSuite } from './orders.suite.js';

/**
 * The back office's webhook endpoints (/console/v1/webhooks, issue 27 item 3): the operations the
 * command line's `webhooks …` performs, over HTTP. Admins create (the secret shown once), update,
 * delete, rotate, read the log and replay; viewers read and get 403 for every change; another
 * marketplace's admin gets 404; every change leaves one audit row, the command line's too. An
 * endpoint whose deliveries fail shows on the attention list as failing.
 */
const suite = ordersSuite();
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Op = { token: string };
let admin: Op;
let viewer: Op;
let stranger: Op;

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who?: Op, payload?: unknown) =>
  suite.h.request({ method, url, ...(who ? { key: who.token } : {}), ...(payload !== undefined ? { payload: payload as object } : {}) });

async function operator(slug: string, email: string, role: 'admin' | 'viewer'): Promise<Op> {
  const out = await suite.h.console.operators.create({ marketplace: slug, email, role });
  const res = await call('POST', '/console/v1/invitations/accept', undefined, { token: tokenOf(out.invitation_url), password: 'correct horse battery' });
  expect(res.statusCode, res.body).toBe(200);
  return { token: res.json().token };
}

/** The audit rows of one action on one endpoint, newest first. */
async function auditOf(action: string, id: string): Promise<Json[]> {
  const res = await call('GET', `/console/v1/audit?action=${action}&target_id=${id}&limit=100`, admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items;
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let url: string;
let received: Received[];
let answers: number[];
const now = () => suite.h.clock.now();

/** The package's own verifier, at the timestamp the webhook carries (the service runs on the test clock). */
function verify(secret: string, r: Received): Json {
  const spy = vi.spyOn(Date, 'now').mockReturnValue(Number(r.headers['webhook-timestamp']) * 1000);
  try {
    return new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as Json;
  } finally {
    spy.mockRestore();
  }
}

beforeAll(async () => {
  admin = await operator('shop', 'boss@shop.example', 'admin');
  viewer = await operator('shop', 'watch@shop.example', 'viewer');
  stranger = await operator('own', 'boss@own.example', 'admin');
  receiver = await startReceiver();
  ({ url, received, answers } = receiver);
});
afterAll(() => receiver.close());

describe('an admin works an endpoint from the back office', () => {
  test('create (201, the secret once), list without it, signed deliveries, the log, replay, rotate, update, delete — each change one audit row', async () => {
    const created = await call('POST', '/console/v1/webhooks', admin, { url, events: ['user.created'] });
    expect(created.statusCode, created.body).toBe(201);
    const { endpoint, secret } = created.json();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({ url, events: ['user.created'], enabled: true, status: 'enabled' });
    const listed = await call('GET', '/console/v1/webhooks', viewer);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items.map((e: Json) => e.id)).toEqual([endpoint.id]);
    expect(listed.body).not.toContain(secret);
    // the command line sees the same endpoint (one definition)
    expect((await suite.h.console.webhooks.list({ marketplace: 'shop' })).items).toEqual(listed.json().items);
    const [row] = await auditOf('webhook_endpoint.create', endpoint.id);
    expect(row).toMatchObject({ actor: { type: 'operator', email: 'boss@shop.example' }, target: { type: 'webhook_endpoint', id: endpoint.id }, data: { url, events: 'user.created' } });
    expect(JSON.stringify(row)).not.toContain(secret);

    // a delivery the receiver refuses once, then takes: the log shows both attempts, newest first
    answers.push(500);
    received.length = 0;
    await signUp(suite.h, suite.shop.secret, { email: 'console-hooked@example.com' });
    await suite.advance(suite.shop, now());
    await suite.advance(suite.shop, new Date(now().getTime() + 6000));
    expect(received).toHaveLength(2);
    const event = verify(secret, received[1]!);
    expect(event).toMatchObject({ type: 'user.created', data: { object: { email: 'console-hooked@example.com' } } });
    const log = await call('GET', `/console/v1/webhooks/${endpoint.id}/deliveries?limit=2`, viewer);
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().items.map((a: Json) => [a.event_id, a.attempt, a.status_code, a.error, a.delivery_status])).toEqual([
      [event.id, 2, 200, null, 'delivered'],
      [event.id, 1, 500, 'HTTP 500', 'delivered'],
    ]);
    expect((await call('GET', `/console/v1/webhooks/${endpoint.id}/deliveries?limit=1`, viewer)).json().items).toHaveLength(1);
    const over = await call('GET', `/console/v1/webhooks/${endpoint.id}/deliveries?limit=1001`, viewer);
    expect([over.statusCode, over.json().errors?.[0]?.location]).toEqual([422, 'query.limit']);

    // replay: a new delivery of the same event, the same webhook-id
    const replayed = await call('POST', `/console/v1/webhooks/${endpoint.id}/replay`, admin, { event: event.id });
    expect(replayed.statusCode, replayed.body).toBe(202);
    expect(replayed.json()).toMatchObject({ endpoint_id: endpoint.id, event_id: event.id });
    await suite.advance(suite.shop, new Date(now().getTime() + 1000));
    expect(received).toHaveLength(3);
    expect(received[2]!.headers['webhook-id']).toBe(event.id);
    const unknown = await call('POST', `/console/v1/webhooks/${endpoint.id}/replay`, admin, { event: 'evt_nothing' });
    expect(unknown.statusCode).toBe(404);

    // rotate: the new secret once; both sign for 24 hours
    const rotated = await call('POST', `/console/v1/webhooks/${endpoint.id}/rotate-secret`, admin);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json().secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect(rotated.json().endpoint.previous_secret_signs_until).toBe(new Date(now().getTime() + 24 * 3600 * 1000).toISOString());
    await signUp(suite.h, suite.shop.secret, { email: 'console-rotated@example.com' });
    await suite.advance(suite.shop, now());
    expect(verify(fresh, received.at(-1)!).type).toBe('user.created');
    expect(verify(secret, received.at(-1)!).type).toBe('user.created');

    // update: events as a list (or ["*"]), a URL, enabled; every problem at once
    const bad = await call('PATCH', `/console/v1/webhooks/${endpoint.id}`, admin, { url: 'ftp://example.com/x', events: ['order.paid', 'user.created'] });
    expect(bad.statusCode, bad.body).toBe(422);
    expect(bad.json().errors.map((e: Json) => [e.location, e.value])).toEqual([
      ['body.url', 'ftp://example.com/x'],
      ['body.events', 'order.paid'],
    ]);
    const mixed = await call('PATCH', `/console/v1/webhooks/${endpoint.id}`, admin, { events: ['*', 'user.created'] });
    expect([mixed.statusCode, mixed.json().errors[0].location]).toEqual([422, 'body.events']);
    const commas = await call('PATCH', `/console/v1/webhooks/${endpoint.id}`, admin, { events: ['user.created,order.updated'] });
    expect(commas.statusCode).toBe(422);
    const off = await call('PATCH', `/console/v1/webhooks/${endpoint.id}`, admin, { events: ['*'], enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().endpoint).toMatchObject({ events: ['*'], enabled: false, status: 'disabled', disabled_reason: 'Disabled by the team.' });
    received.length = 0;
    await signUp(suite.h, suite.shop.secret, { email: 'console-off@example.com' });
    await suite.advance(suite.shop, now());
    expect(received).toHaveLength(0);
    const on = await call('PATCH', `/console/v1/webhooks/${endpoint.id}`, admin, { enabled: true });
    expect(on.json().endpoint).toMatchObject({ enabled: true, status: 'enabled' });

    // one audit row per change: create, replay, rotate, the two updates that changed something (refused ones leave none)
    for (const [action, n] of [
      ['webhook_endpoint.create', 1],
      ['webhook_endpoint.replay', 1],
      ['webhook_endpoint.rotate_secret', 1],
      ['webhook_endpoint.update', 2],
    ] as const) expect(await auditOf(action, endpoint.id), action).toHaveLength(n);
    expect(JSON.stringify(await auditOf('webhook_endpoint.rotate_secret', endpoint.id))).not.toContain(fresh);

    const deleted = await call('DELETE', `/console/v1/webhooks/${endpoint.id}`, admin);
    expect([deleted.statusCode, deleted.json()]).toEqual([200, { deleted: true, id: endpoint.id }]);
    expect(await auditOf('webhook_endpoint.delete', endpoint.id)).toHaveLength(1);
    expect((await call('DELETE', `/console/v1/webhooks/${endpoint.id}`, admin)).statusCode).toBe(404);
    expect((await call('GET', '/console/v1/webhooks', admin)).json().items).toEqual([]);
  });

  test('the command line performs the same operations: its changes are audited too, as cli', async () => {
    const { endpoint } = await suite.h.console.webhooks.create({ marketplace: 'shop', url, events: 'order.updated' });
    await suite.h.console.webhooks.update({ marketplace: 'shop', id: endpoint.id, events: '*' });
    await suite.h.console.webhooks.delete({ marketplace: 'shop', id: endpoint.id });
    for (const action of ['webhook_endpoint.create', 'webhook_endpoint.update', 'webhook_endpoint.delete']) {
      expect(await auditOf(action, endpoint.id), action).toEqual([expect.objectContaining({ actor: { type: 'cli' } })]);
    }
  });

  test('bad bodies: every problem at once, never a 500', async () => {
    const none = await call('POST', '/console/v1/webhooks', admin, {});
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.map((e: Json) => e.location).sort()).toEqual(['body.events', 'body.url']);
    const empty = await call('POST', '/console/v1/webhooks', admin, { url: 'http://127.0.0.1:9/x', events: [] });
    expect([empty.statusCode, empty.json().errors[0].location]).toEqual([422, 'body.events']);
    const long = await call('POST', '/console/v1/webhooks', admin, { url: `http://example.com/${'a'.repeat(1981)}`, events: ['*'] });
    expect(long.statusCode, long.body).toBe(201); // 2000 characters: the limit
    const longer = await call('POST', '/console/v1/webhooks', admin, { url: `http://example.com/${'a'.repeat(1982)}`, events: ['*'] });
    expect([longer.statusCode, longer.json().errors[0].location]).toEqual([422, 'body.url']);
    const extra = await call('POST', '/console/v1/webhooks', admin, { url: 'http://127.0.0.1:9/x', events: ['*'], secret: 'whsec_mine' });
    expect(extra.statusCode).toBe(422);
    await call('DELETE', `/console/v1/webhooks/${long.json().endpoint.id}`, admin);
  });
});

describe('who may', () => {
  let id: string;
  let eventId: string;
  beforeAll(async () => {
    id = (await suite.h.console.webhooks.create({ marketplace: 'shop', url, events: '*' })).endpoint.id;
    eventId = (await suite.h.request({ method: 'GET', url: '/v1/events?limit=1', key: suite.shop.secret })).json().items[0].id;
  });
  afterAll(() => suite.h.console.webhooks.delete({ marketplace: 'shop', id }));

  const writes = (id: () => string, eventId: () => string) =>
    [
      ['POST', '/console/v1/webhooks', { url: 'http://127.0.0.1:9/x', events: ['*'] }],
      ['PATCH', `/console/v1/webhooks/${id()}`, { enabled: false }],
      ['DELETE', `/console/v1/webhooks/${id()}`, undefined],
      ['POST', `/console/v1/webhooks/${id()}/rotate-secret`, undefined],
      ['POST', `/console/v1/webhooks/${id()}/replay`, { event: eventId() }],
    ] as const;

  test('a viewer reads and gets 403 for every change (and changes nothing); no session is 401', async () => {
    const before = (await call('GET', '/console/v1/webhooks', viewer)).json();
    for (const [method, path, body] of writes(() => id, () => eventId)) {
      const res = await call(method, path, viewer, body);
      expect([res.statusCode, res.json().code], `${method} ${path}`).toEqual([403, 'forbidden']);
      expect((await call(method, path, undefined, body)).statusCode, `${method} ${path}`).toBe(401);
    }
    expect((await call('GET', '/console/v1/webhooks', viewer)).json()).toEqual(before);
    expect((await call('GET', `/console/v1/webhooks/${id}/deliveries`, viewer)).statusCode).toBe(200);
    expect(await auditOf('webhook_endpoint.update', id)).toEqual([]);
  });

  test("another marketplace's admin: 404 for this endpoint, as for one that never existed; its own list is empty", async () => {
    for (const [method, path, body] of writes(() => id, () => eventId).slice(1)) {
      const res = await call(method, path, stranger, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    expect((await call('GET', `/console/v1/webhooks/${id}/deliveries`, stranger)).statusCode).toBe(404);
    expect((await call('GET', '/console/v1/webhooks', stranger)).json().items).toEqual([]);
    // and this marketplace's event replayed to the other's own endpoint: 404 (events stay in their marketplace)
    const { endpoint } = await suite.h.console.webhooks.create({ marketplace: 'own', url, events: '*' });
    expect((await call('POST', `/console/v1/webhooks/${endpoint.id}/replay`, stranger, { event: eventId })).statusCode).toBe(404);
    await suite.h.console.webhooks.delete({ marketplace: 'own', id: endpoint.id });
    expect((await call('GET', '/console/v1/webhooks', admin)).json().items.map((e: Json) => e.id)).toEqual([id]);
  });
});

test('attention: an endpoint whose deliveries fail shows as failing (the first failure on), until a delivery succeeds again', async () => {
  const attention = async () => {
    const res = await call('GET', '/console/v1/attention', viewer);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().queues.webhooks_failing as { count: number; items: Json[] };
  };
  const created = await call('POST', '/console/v1/webhooks', admin, { url, events: ['user.created'] });
  const id = created.json().endpoint.id as string;
  expect((await attention()).count).toBe(0);
  answers.length = 0;
  answers.push(...Array(8).fill(503));
  received.length = 0;
  await signUp(suite.h, suite.shop.secret, { email: 'console-failing@example.com' });
  await suite.advance(suite.shop, now());
  expect(received).toHaveLength(1);
  expect(await attention()).toMatchObject({ count: 1, items: [{ id, status: 'failing', failing_since: now().toISOString() }] });
  // every attempt of the schedule failed: the delivery failed, the endpoint still failing
  await suite.advance(suite.shop, new Date(now().getTime() + 2 * 24 * 3600 * 1000));
  expect(received).toHaveLength(8);
  expect((await call('GET', `/console/v1/webhooks/${id}/deliveries?limit=1`, viewer)).json().items[0]).toMatchObject({ attempt: 8, delivery_status: 'failed' });
  expect(await attention()).toMatchObject({ count: 1, items: [{ id, status: 'failing' }] });
  // another marketplace's team never sees it
  expect((await call('GET', '/console/v1/attention', stranger)).json().queues.webhooks_failing.count).toBe(0);
  // the receiver answers again: the next delivery clears it
  await signUp(suite.h, suite.shop.secret, { email: 'console-recovered@example.com' });
  await suite.advance(suite.shop, now());
  expect(received).toHaveLength(9);
  expect((await attention()).count).toBe(0);
  expect((await call('DELETE', `/console/v1/webhooks/${id}`, admin)).statusCode).toBe(200);
});

test('the console document describes each webhook operation: summary, description, an example of each body and answer', async () => {
  const doc = (await suite.h.app.inject({ method: 'GET', url: '/console/v1/openapi.json' })).json();
  const ops = Object.entries(doc.paths as Json)
    .filter(([p]) => p.startsWith('/webhooks'))
    .flatMap(([p, item]) => Object.entries(item as Json).map(([m, op]) => [p, m, op as Json] as const));
  expect(ops.map(([p, m]) => `${m.toUpperCase()} ${p}`).sort()).toEqual([
    'DELETE /webhooks/{id}',
    'GET /webhooks',
    'GET /webhooks/{id}/deliveries',
    'PATCH /webhooks/{id}',
    'POST /webhooks',
    'POST /webhooks/{id}/replay',
    'POST /webhooks/{id}/rotate-secret',
  ]);
  for (const [p, m, op] of ops) {
    const where = `${m.toUpperCase()} ${p}`;
    expect(op.tags, where).toEqual(['Webhooks']);
    expect(op.summary, where).toMatch(/^\S.{2,60}$/);
    expect(op.description?.length ?? 0, where).toBeGreaterThan(20);
    const success = Object.entries(op.responses as Json).find(([s]) => s.startsWith('2'))!;
    expect(Object.keys(success[1].content['application/json'].examples ?? {}).length, `${where}: an example answer`).toBeGreaterThan(0);
    if (m !== 'get') expect(op.responses['403'], `${where}: viewers 403`).toBeDefined();
    const body = op.requestBody?.content?.['application/json'];
    if (!body) continue;
    const validate = (await requestBodyValidator(suite.h.app, m, p, '/console/v1'))!;
    expect(validate(body.example), `${where}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
});
