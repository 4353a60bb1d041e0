import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { InjectOptions } from 'fastify';
import { apiKeyAuthenticator } from '../src/http/api-key-cache.js';
import { addApiKeyResolution } from '../src/http/auth.js';
import { ABANDONED_AFTER_MS, addIdempotency, OWNER_GONE_AFTER_MS } from '../src/http/idempotency.js';
import { makeMarketplace, signUp, startHarness, type Harness } from './harness.js';

/**
 * The idempotency hooks are mounted on /v1 and /trpc. The foundation has no public mutations yet,
 * so these tests mount the same hooks (same key resolution, same Postgres store, same clock) on
 * probe routes that count how often their handler really ran.
 */
let h: Harness;
let keys: { secret: string; publishable: string };
let calls: Record<string, number>;
let release: () => void = () => {};
let gate: Promise<void> = Promise.resolve();

beforeAll(async () => {
  h = await startHarness({
    extend: async (app, orm, clock) => {
      await app.register(
        async (scope) => {
          addApiKeyResolution(scope, apiKeyAuthenticator(orm, 'test', 0));
          addIdempotency(scope, orm, clock);
          scope.post('/orders', async (req, reply) => {
            calls.orders = (calls.orders ?? 0) + 1;
            return reply.code(201).header('Location', '/v1/orders/1').send({ n: calls.orders, body: req.body ?? null });
          });
          scope.post('/slow', async () => {
            calls.slow = (calls.slow ?? 0) + 1;
            await gate;
            return { n: calls.slow };
          });
          scope.post('/flaky', async (_req, reply) => {
            calls.flaky = (calls.flaky ?? 0) + 1;
            if (calls.flaky === 1) return reply.code(503).send({ error: 'down' });
            return reply.code(201).send({ n: calls.flaky });
          });
          scope.post('/invalid', async (_req, reply) => {
            calls.invalid = (calls.invalid ?? 0) + 1;
            return reply.code(422).type('application/problem+json').send({ status: 422, n: calls.invalid });
          });
          scope.delete('/things/:id', async (_req, reply) => {
            calls.delete = (calls.delete ?? 0) + 1;
            return reply.code(204).send();
          });
          scope.get('/read', async () => ({ n: (calls.read = (calls.read ?? 0) + 1) }));
        },
        { prefix: '/v1/_probe' },
      );
    },
  });
  keys = await makeMarketplace(h);
});
afterAll(() => h.close());
beforeEach(() => {
  calls = {};
});

/** Waits for what a busy machine may take a while to get to (fails the test after 10 s). */
async function until(done: () => boolean) {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(done()).toBe(true);
}

function send(path: string, opts: { key?: string; idem?: string; body?: unknown; method?: InjectOptions['method']; session?: string } = {}) {
  return h.app.inject({
    method: opts.method ?? 'POST',
    url: `/v1/_probe${path}`,
    headers: {
      authorization: `Bearer ${opts.key ?? keys.secret}`,
      ...(opts.idem ? { 'idempotency-key': opts.idem } : {}),
      ...(opts.session ? { 'x-user-session': opts.session } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(opts.body !== undefined ? { payload: JSON.stringify(opts.body) } : {}),
  });
}

describe('Idempotency-Key', () => {
  test('same key and request: the first response is replayed with Idempotent-Replayed: true', async () => {
    const idem = randomUUID();
    const first = await send('/orders', { idem, body: { listing_id: 'a', quantity: 1 } });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send('/orders', { idem, body: { quantity: 1, listing_id: 'a' } }); // same JSON, keys reordered
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(again.headers.location).toBe('/v1/orders/1');
    expect(again.headers['request-id']).not.toBe(first.headers['request-id']);
    expect(calls.orders).toBe(1);
  });

  test('without a key every request runs', async () => {
    await send('/orders', { body: {} });
    await send('/orders', { body: {} });
    expect(calls.orders).toBe(2);
  });

  test('same key with another body, path or method → 422, nothing runs', async () => {
    const idem = randomUUID();
    await send('/orders', { idem, body: { quantity: 1 } });
    for (const other of [
      send('/orders', { idem, body: { quantity: 2 } }),
      send('/orders', { idem }),
      send('/invalid', { idem, body: { quantity: 1 } }),
      send('/things/1', { idem, method: 'DELETE' }),
    ]) {
      const res = await other;
      expect(res.statusCode).toBe(422);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ code: 'idempotency_key_reused', status: 422 });
    }
    expect(calls.orders).toBe(1);
    expect(calls.invalid).toBeUndefined();
  });

  test('a key that is not a UUID → 400 problem naming the header', async () => {
    for (const bad of ['abc', '12345678-1234-1234-1234-1234567890123', '']) {
      const res = await send('/orders', { idem: bad || ' ', body: {} });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_idempotency_key', errors: [{ location: 'header.Idempotency-Key' }] });
    }
    expect(calls.orders).toBeUndefined();
  });

  test('while the first request runs, the same key → 409; afterwards it replays', async () => {
    gate = new Promise((r) => (release = r));
    const idem = randomUUID();
    const first = send('/slow', { idem, body: {} });
    await until(() => calls.slow === 1); // the first has claimed the key and is in the handler
    const during = await send('/slow', { idem, body: {} });
    expect(during.statusCode).toBe(409);
    expect(during.json()).toMatchObject({ code: 'idempotency_request_in_progress' });
    expect(during.headers['retry-after']).toBe('1');
    release();
    expect((await first).statusCode).toBe(200);
    const after = await send('/slow', { idem, body: {} });
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(calls.slow).toBe(1);
  });

  test('many concurrent requests with one key: the handler runs exactly once', async () => {
    gate = new Promise((r) => (release = r));
    const idem = randomUUID();
    const all = Array.from({ length: 12 }, () => send('/slow', { idem, body: { x: 1 } }));
    // Hold the first until the others have had their answer (however long a busy machine takes).
    let answered = 0;
    for (const p of all) void p.then(() => answered++);
    await until(() => answered === 11);
    release();
    const statuses = (await Promise.all(all)).map((r) => r.statusCode).sort();
    expect(calls.slow).toBe(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(11);
  });

  test('a request left running by a crashed process is taken over after the timeout', async () => {
    const idem = randomUUID();
    gate = new Promise((r) => (release = r));
    const running = send('/slow', { idem, body: {} });
    await until(() => calls.slow === 1);
    expect((await send('/slow', { idem, body: {} })).statusCode).toBe(409);
    h.clock.advance(ABANDONED_AFTER_MS);
    const takeover = send('/slow', { idem, body: {} });
    await until(() => calls.slow === 2); // it claimed the key and entered the handler
    expect(calls.slow).toBe(2);
    release();
    const took = await takeover;
    expect(took.statusCode, took.body).toBe(200);
    await running;
    expect(calls.slow).toBe(2);
  });

  test('a request whose process died (its lease is free) is taken over within seconds, not after a minute; while its process lives it is not', async () => {
    const idem = randomUUID();
    gate = new Promise((r) => (release = r));
    const running = send('/slow', { idem, body: {} });
    await until(() => calls.slow === 1);
    const db = h.orm.em.getConnection();
    const [row] = await db.execute<{ owner: string | null }[]>(`select owner from idempotency_keys where key = ?`, [idem]);
    expect(row!.owner).toMatch(/^api-/); // this process, which holds its lease
    h.clock.advance(OWNER_GONE_AFTER_MS);
    expect((await send('/slow', { idem, body: {} })).statusCode).toBe(409); // its owner lives
    // the owner's process dies: Postgres drops its session's lock (here: an owner whose lease nobody holds)
    await db.execute(`update idempotency_keys set owner = ? where key = ?`, [`api-${randomUUID()}`, idem]);
    h.clock.advance(OWNER_GONE_AFTER_MS - 1);
    const takeover = send('/slow', { idem, body: {} });
    await until(() => calls.slow === 2); // taken over well before ABANDONED_AFTER_MS
    release();
    const took = await takeover;
    expect(took.statusCode, took.body).toBe(200);
    await running;
    expect(calls.slow).toBe(2);
    expect(OWNER_GONE_AFTER_MS * 10).toBeLessThan(ABANDONED_AFTER_MS);
  });

  test('5xx responses are not stored: a retry runs again, and its success is stored', async () => {
    const idem = randomUUID();
    expect((await send('/flaky', { idem, body: {} })).statusCode).toBe(503);
    const retry = await send('/flaky', { idem, body: {} });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const replay = await send('/flaky', { idem, body: {} });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(calls.flaky).toBe(2);
  });

  test('4xx responses are stored and replayed', async () => {
    const idem = randomUUID();
    const first = await send('/invalid', { idem, body: { a: 1 } });
    const again = await send('/invalid', { idem, body: { a: 1 } });
    expect(again.statusCode).toBe(422);
    expect(again.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(again.body).toBe(first.body);
    expect(calls.invalid).toBe(1);
  });

  test('204 replays with no body', async () => {
    const idem = randomUUID();
    expect((await send('/things/9', { idem, method: 'DELETE' })).statusCode).toBe(204);
    const again = await send('/things/9', { idem, method: 'DELETE' });
    expect(again.statusCode).toBe(204);
    expect(again.body).toBe('');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(calls.delete).toBe(1);
  });

  test('kept 24 hours: just before, replayed; at 24 h the key is new again', async () => {
    const idem = randomUUID();
    await send('/orders', { idem, body: {} });
    h.clock.advance(24 * 3600 * 1000 - 1000);
    expect((await send('/orders', { idem, body: {} })).headers['idempotent-replayed']).toBe('true');
    h.clock.advance(1000);
    const fresh = await send('/orders', { idem, body: {} });
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(calls.orders).toBe(2);
  });

  test('scoped to the API key and the user session', async () => {
    const idem = randomUUID();
    const [a, b] = [(await signUp(h, keys.secret, { email: `a-${idem}@example.com` })).token, (await signUp(h, keys.secret, { email: `b-${idem}@example.com` })).token];
    const otherKey = (await h.console.keys.create({ marketplace: 'shop', kind: 'secret' })).token;
    const other = await makeMarketplace(h, `other-${idem.slice(0, 6)}`);
    await send('/orders', { idem, body: {} });
    await send('/orders', { idem, body: {}, key: otherKey });
    await send('/orders', { idem, body: {}, key: other.secret });
    await send('/orders', { idem, body: {}, session: a });
    await send('/orders', { idem, body: {}, session: b });
    expect(calls.orders).toBe(5);
    expect((await send('/orders', { idem, body: {}, session: a })).headers['idempotent-replayed']).toBe('true');
    expect(calls.orders).toBe(5);
  });

  test('GET ignores the header', async () => {
    const idem = randomUUID();
    await send('/read', { idem, method: 'GET' });
    await send('/read', { idem, method: 'GET' });
    expect(calls.read).toBe(2);
  });

  test('an unauthenticated request is not stored under the key', async () => {
    const idem = randomUUID();
    const res = await send('/orders', { idem, body: {}, key: 'sk_test_nope' });
    expect(res.statusCode).toBe(201); // the probe route has no auth of its own
    const rows = await h.orm.em.getConnection().execute('select count(*)::int as n from idempotency_keys where key = ?', [idem]);
    expect(rows[0]!.n).toBe(0);
  });

  test('wired on the real /trpc and /v1 scopes: a bad key is refused before anything runs', async () => {
    const trpc = await h.app.inject({
      method: 'POST',
      url: '/trpc/marketplace.get',
      headers: { authorization: `Bearer ${keys.secret}`, 'idempotency-key': 'nope', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(trpc.statusCode).toBe(400);
    expect(trpc.json()).toMatchObject({ code: 'invalid_idempotency_key' });
  });
});
