import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createOrm, type MikroORM } from '@hm/db/orm';
import { PGBOUNCER, startPgBouncer, type PgBouncer } from '@hm/db/testing/pgbouncer';
import { buildApp } from '../src/app.js';
import { makeCatalog, startHarness, type Harness } from './harness.js';

/**
 * The API through PgBouncer in transaction mode (Debian's `pgbouncer`; `.ci/run` installs it): the
 * tenant settings are transaction-local (`set_config(…, true)`), reads run in one transaction and
 * idempotency records in theirs, so a server connection shared by interleaved requests of two
 * marketplaces never lets row-level security see another request's marketplace. Two server
 * connections for many concurrent requests force the interleaving.
 */
describe.skipIf(!PGBOUNCER)('through PgBouncer (transaction pooling)', () => {
  let h: Harness;
  let bouncer: PgBouncer;
  let orm: MikroORM;
  let app: FastifyInstance;
  let a: Awaited<ReturnType<typeof makeCatalog>>;
  let b: Awaited<ReturnType<typeof makeCatalog>>;

  beforeAll(async () => {
    h = await startHarness();
    a = await makeCatalog(h, 'bouncer-a');
    b = await makeCatalog(h, 'bouncer-b');
    await h.console.categories.import({ marketplace: 'bouncer-b', items: [{ slug: 'only-in-b', names: { en: 'Only in B' }, position: 9 }] });
    bouncer = await startPgBouncer(h.databaseUrl, { poolSize: 2 });
    orm = await createOrm(bouncer.url, { poolMax: 8 });
    app = await buildApp({ orm, mode: 'test', ports: h.ports, apiUrl: 'http://localhost:4000', directUrl: h.databaseUrl });
  });
  afterAll(async () => {
    await app?.close();
    await orm?.close(true);
    await bouncer?.stop();
    await h?.close();
  });

  const get = (key: string, url: string, session?: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}`, ...(session ? { 'x-user-session': session } : {}) } });

  test("interleaved reads of two marketplaces on two server connections: each answer is its own marketplace's, never the other's", async () => {
    const expected = {
      a: (await h.request({ method: 'GET', url: '/v1/categories', key: a.publishable })).body,
      b: (await h.request({ method: 'GET', url: '/v1/categories', key: b.publishable })).body,
    };
    expect(expected.a).not.toBe(expected.b);
    const answers = await Promise.all(Array.from({ length: 120 }, (_, i) => (i % 2 ? get(b.publishable, '/v1/categories') : get(a.publishable, '/v1/categories'))));
    answers.forEach((res, i) => {
      expect(res.statusCode, `request ${i}`).toBe(200);
      expect(res.body, `request ${i}`).toBe(i % 2 ? expected.b : expected.a);
    });
  });

  test('concurrent sign-ups in both marketplaces land in their own; each session reads its own user; an idempotent retry replays', async () => {
    const signUps = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: '/v1/users',
          headers: { authorization: `Bearer ${i % 2 ? b.secret : a.secret}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          payload: JSON.stringify({ email: `user${i}@example.com`, password: 'correct-horse-battery' }),
        }),
      ),
    );
    for (const [i, res] of signUps.entries()) {
      expect(res.statusCode, `sign-up ${i}: ${res.body}`).toBe(201);
      const session = res.json().session.token as string;
      const me = await get(i % 2 ? b.secret : a.secret, '/v1/me', session);
      expect(me.json().email).toBe(`user${i}@example.com`);
      // the other marketplace does not know the session
      expect((await get(i % 2 ? a.secret : b.secret, '/v1/me', session)).statusCode).toBe(401);
    }
    const key = randomUUID();
    const send = () =>
      app.inject({ method: 'POST', url: '/v1/users', headers: { authorization: `Bearer ${a.secret}`, 'content-type': 'application/json', 'idempotency-key': key }, payload: JSON.stringify({ email: 'again@example.com', password: 'correct-horse-battery' }) });
    const first = await send();
    const again = await send();
    expect(first.statusCode).toBe(201);
    expect([again.statusCode, again.headers['idempotent-replayed'], again.body]).toEqual([201, 'true', first.body]);
  });

  test("one Idempotency-Key sent at once to both marketplaces: each keeps its own record (row-level security), makes its own user once, and replays its own answer", async () => {
    const key = randomUUID();
    const send = (m: typeof a, email: string) =>
      app.inject({ method: 'POST', url: '/v1/users', headers: { authorization: `Bearer ${m.secret}`, 'content-type': 'application/json', 'idempotency-key': key }, payload: JSON.stringify({ email, password: 'correct-horse-battery' }) });
    // the same key and body in both, interleaved: the records live per marketplace, so neither sees the other's
    const first = await Promise.all([send(a, 'shared@example.com'), send(b, 'shared@example.com')]);
    expect(first.map((r) => r.statusCode), first.map((r) => r.body).join('\n')).toEqual([201, 201]);
    const [userA, userB] = first.map((r) => r.json().user.id as string);
    expect(userA).not.toBe(userB);
    const replays = await Promise.all(Array.from({ length: 20 }, (_, i) => send(i % 2 ? b : a, 'shared@example.com')));
    replays.forEach((r, i) => {
      expect([r.statusCode, r.headers['idempotent-replayed']], `replay ${i}`).toEqual([201, 'true']);
      expect(r.body, `replay ${i}`).toBe(first[i % 2]!.body);
    });
  });

  test("multi-statement reads with a user's session (the session, then the user, in one read transaction), 80 at once across both marketplaces: each answers its own user", async () => {
    const users = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const m = i % 2 ? b : a;
        const res = await app.inject({ method: 'POST', url: '/v1/users', headers: { authorization: `Bearer ${m.secret}`, 'content-type': 'application/json' }, payload: JSON.stringify({ email: `reader${i}@example.com`, password: 'correct-horse-battery' }) });
        expect(res.statusCode, res.body).toBe(201);
        return { m, email: `reader${i}@example.com`, session: res.json().session.token as string };
      }),
    );
    const reads = await Promise.all(Array.from({ length: 80 }, (_, i) => get(users[i % 8]!.m.secret, '/v1/me', users[i % 8]!.session)));
    reads.forEach((res, i) => {
      expect(res.statusCode, `read ${i}: ${res.body}`).toBe(200);
      expect(res.json().email, `read ${i}`).toBe(users[i % 8]!.email);
    });
  });

  test("the idempotency lease (a session advisory lock) is held on the direct connection: when the process goes, Postgres drops it at once", async () => {
    const direct = new pg.Client({ connectionString: h.databaseUrl });
    await direct.connect();
    // advisory locks held in Postgres, by any session
    const held = async () => Number((await direct.query(`select count(*)::int as n from pg_locks where locktype = 'advisory' and granted`)).rows[0].n);
    const until = async (ok: (n: number) => boolean) => {
      for (let i = 0; i < 100; i++) {
        const n = await held();
        if (ok(n)) return n;
        await new Promise((r) => setTimeout(r, 50));
      }
      return held();
    };
    try {
      const before = await held();
      // another API process: its own pool through PgBouncer, its own lease
      const otherOrm = await createOrm(bouncer.url, { poolMax: 2 });
      const other = await buildApp({ orm: otherOrm, mode: 'test', ports: h.ports, apiUrl: 'http://localhost:4000', directUrl: h.databaseUrl });
      expect(await until((n) => n > before)).toBe(before + 1);
      await other.close();
      await otherOrm.close(true);
      // through the pooler the lock would stay on a pooled server connection, "held" for good
      expect(await until((n) => n === before)).toBe(before);
    } finally {
      await direct.end();
    }
  });

  test('password sign-ins (a read, the password check with no connection held, then a transaction locking the counters), 12 at once in both marketplaces, wrong and right', async () => {
    for (const m of [a, b]) {
      const res = await app.inject({ method: 'POST', url: '/v1/users', headers: { authorization: `Bearer ${m.secret}`, 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'signer@example.com', password: 'correct-horse-battery' }) });
      expect(res.statusCode, res.body).toBe(201);
    }
    const signIns = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: '/v1/sessions',
          headers: { authorization: `Bearer ${i % 2 ? b.secret : a.secret}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ email: 'signer@example.com', password: i % 3 ? 'correct-horse-battery' : 'wrong-password-here' }),
        }),
      ),
    );
    signIns.forEach((res, i) => expect(res.statusCode, `sign-in ${i}: ${res.body}`).toBe(i % 3 ? 201 : 401));
  });

  test('after all that, a server connection carries no marketplace outside a transaction', async () => {
    const rows = await Promise.all(Array.from({ length: 4 }, () => orm.em.getConnection().execute<{ m: string | null }[]>(`select current_setting('hm.marketplace_id', true) as m`)));
    for (const [row] of rows) expect(row!.m ?? '').toBe('');
  });
});
