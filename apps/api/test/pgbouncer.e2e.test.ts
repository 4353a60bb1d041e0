import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createOrm, type MikroORM } from '@hm/db/orm';
import { freePort } from '@hm/db/testing/global-setup';
import { buildApp } from '../src/app.js';
import { makeCatalog, startHarness, type Harness } from './harness.js';

/**
 * The API through PgBouncer in transaction mode (Debian's `pgbouncer`; `.ci/run` installs it): the
 * tenant settings are transaction-local (`set_config(…, true)`), reads run in one transaction and
 * idempotency records in theirs, so a server connection shared by interleaved requests of two
 * marketplaces never lets row-level security see another request's marketplace. Two server
 * connections for many concurrent requests force the interleaving.
 */
const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => spawnSync(p, ['--version']).status === 0);

describe.skipIf(!PGBOUNCER)('through PgBouncer (transaction pooling)', () => {
  let h: Harness;
  let dir: string;
  let bouncer: ChildProcess;
  let orm: MikroORM;
  let app: FastifyInstance;
  let a: Awaited<ReturnType<typeof makeCatalog>>;
  let b: Awaited<ReturnType<typeof makeCatalog>>;

  beforeAll(async () => {
    h = await startHarness();
    a = await makeCatalog(h, 'bouncer-a');
    b = await makeCatalog(h, 'bouncer-b');
    await h.console.categories.import({ marketplace: 'bouncer-b', items: [{ slug: 'only-in-b', names: { en: 'Only in B' }, position: 9 }] });
    const direct = new URL(h.databaseUrl);
    dir = mkdtempSync(path.join(tmpdir(), 'hm-pgbouncer-'));
    chmodSync(dir, 0o755);
    const port = await freePort();
    const user = decodeURIComponent(direct.username);
    writeFileSync(
      path.join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `* = host=${direct.hostname} port=${direct.port} user=${user} password=${decodeURIComponent(direct.password)}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = any',
        'pool_mode = transaction',
        'default_pool_size = 2',
        'max_client_conn = 200',
        'ignore_startup_parameters = extra_float_digits,options',
      ].join('\n'),
    );
    chmodSync(path.join(dir, 'pgbouncer.ini'), 0o644);
    // PgBouncer refuses to run as root: then as nobody
    bouncer = spawn(PGBOUNCER!, [...(process.getuid?.() === 0 ? ['-u', 'nobody'] : []), path.join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    bouncer.stderr!.on('data', (d) => (stderr += d));
    for (let i = 0; ; i++) {
      const up = await new Promise<boolean>((r) => {
        const s = connect(port, '127.0.0.1', () => (s.end(), r(true)));
        s.on('error', () => r(false));
      });
      if (up) break;
      if (i > 100) throw new Error(`pgbouncer did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const through = new URL(h.databaseUrl);
    through.port = String(port);
    orm = await createOrm(through.toString(), { poolMax: 8 });
    app = await buildApp({ orm, mode: 'test', ports: h.ports, apiUrl: 'http://localhost:4000' });
  });
  afterAll(async () => {
    await app?.close();
    await orm?.close(true);
    bouncer?.kill('SIGTERM');
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
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

  test('after all that, a server connection carries no marketplace outside a transaction', async () => {
    const rows = await Promise.all(Array.from({ length: 4 }, () => orm.em.getConnection().execute<{ m: string | null }[]>(`select current_setting('hm.marketplace_id', true) as m`)));
    for (const [row] of rows) expect(row!.m ?? '').toBe('');
  });
});
