import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createOrm, tenantEm, type MikroORM } from '@hm/db/orm';
import { OPERATOR_SESSION_IDLE_MS, OPERATOR_SESSION_MAX_MS, setOperatorRole } from '@hm/domain/operators';
import { buildApp } from '../src/app.js';
import { API_KEY_CACHE_MAX_MS } from '../src/http/api-key-cache.js';
import { makeMarketplace, startHarness, type Harness } from './harness.js';

/**
 * The operator session check is remembered per API process for up to a second (like API keys,
 * API_KEY_CACHE_MS): a sign-out or a change made through this process shows at once in it, and in
 * every process listening for the change triggers as soon as it commits; in one that does not
 * listen within the second.
 */
let h: Harness;
let orms: MikroORM[];
let cached: FastifyInstance; // remembers, does not listen
let listening: FastifyInstance[]; // remember and listen

beforeAll(async () => {
  h = await startHarness();
  await makeMarketplace(h, 'team');
  orms = await Promise.all([0, 1, 2].map(() => createOrm(h.databaseUrl, { poolMax: 2 })));
  const deps = { mode: 'test' as const, ports: h.ports, apiUrl: 'http://localhost:4000', apiKeyCacheMs: API_KEY_CACHE_MAX_MS };
  cached = await buildApp({ orm: orms[0]!, ...deps });
  listening = await Promise.all(orms.slice(1).map((orm) => buildApp({ orm, ...deps, keyChangesUrl: h.databaseUrl })));
});
afterAll(async () => {
  await Promise.all([cached, ...listening].map((a) => a.close()));
  await Promise.all(orms.map((o) => o.close(true)));
  await h.close();
});

const call = (app: FastifyInstance, method: 'GET' | 'DELETE' | 'POST', url: string, token: string, payload?: object) =>
  app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

let n = 0;
async function signedIn(role: 'admin' | 'viewer'): Promise<{ token: string; id: string }> {
  const out = await h.console.operators.create({ marketplace: 'team', email: `op${++n}@team.example`, role });
  const invitation = new URL(out.invitation_url).searchParams.get('token')!;
  const res = await h.app.inject({ method: 'POST', url: '/console/v1/invitations/accept', payload: { token: invitation, password: 'correct horse battery' } });
  expect(res.statusCode, res.body).toBe(200);
  return { token: res.json().token, id: res.json().operator.id };
}

/** the role as another process's command sets it (setOperatorRole, in the operator's marketplace) */
async function setRole(id: string, role: 'admin' | 'viewer') {
  const [row] = await h.orm.em.getConnection().execute<{ marketplace_id: string }[]>(`select marketplace_id from operators where id = ?`, [id]);
  await setOperatorRole(tenantEm(h.orm, row!.marketplace_id), id, role);
}

/** ms until `check` holds for every app (polled every 10 ms), or the cache's whole second */
async function seenAfter(apps: FastifyInstance[], check: (app: FastifyInstance) => Promise<boolean>): Promise<number> {
  const from = performance.now();
  for (;;) {
    const seen = await Promise.all(apps.map(check));
    if (seen.every(Boolean) || performance.now() - from > API_KEY_CACHE_MAX_MS + 100) return performance.now() - from;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('operator sessions remembered per process', () => {
  test('a sign-out is refused at once by the process that made it, even on a request made right after', async () => {
    const op = await signedIn('viewer');
    for (let i = 0; i < 3; i++) expect((await call(cached, 'GET', '/console/v1/me', op.token)).statusCode).toBe(200);
    expect((await call(cached, 'DELETE', '/console/v1/sessions/current', op.token)).statusCode).toBe(204);
    const after = await call(cached, 'GET', '/console/v1/me', op.token);
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('invalid_operator_session');
  });

  test('a sign-out in one process: those listening refuse the session as soon as it commits, the others within a second', async () => {
    const op = await signedIn('viewer');
    for (const app of [cached, ...listening]) expect((await call(app, 'GET', '/console/v1/me', op.token)).statusCode).toBe(200);
    expect((await call(listening[0]!, 'DELETE', '/console/v1/sessions/current', op.token)).statusCode).toBe(204);
    const refused = async (app: FastifyInstance) => (await call(app, 'GET', '/console/v1/me', op.token)).statusCode === 401;
    expect(await seenAfter(listening, refused)).toBeLessThan(API_KEY_CACHE_MAX_MS / 2);
    expect(await seenAfter([cached], refused)).toBeLessThanOrEqual(API_KEY_CACHE_MAX_MS + 50);
    expect(await refused(cached)).toBe(true);
  });

  test('a role changed elsewhere (another process): a viewer made admin may write, an admin made viewer may not, as soon as it commits', async () => {
    const op = await signedIn('admin');
    await signedIn('admin'); // the team keeps an admin
    const write = (app: FastifyInstance) => call(app, 'POST', '/console/v1/keys', op.token, { kind: 'publishable' });
    for (const app of listening) expect((await write(app)).statusCode).toBe(201);
    await setRole(op.id, 'viewer');
    expect(await seenAfter(listening, async (app) => (await write(app)).statusCode === 403)).toBeLessThan(API_KEY_CACHE_MAX_MS / 2);
    for (const app of listening) expect((await call(app, 'GET', '/console/v1/me', op.token)).json().role).toBe('viewer');
    await setRole(op.id, 'admin');
    expect(await seenAfter(listening, async (app) => (await call(app, 'GET', '/console/v1/me', op.token)).json().role === 'admin')).toBeLessThan(API_KEY_CACHE_MAX_MS / 2);
  });

  test('a removed operator: every session refused as soon as it commits', async () => {
    const op = await signedIn('viewer');
    for (const app of listening) expect((await call(app, 'GET', '/console/v1/me', op.token)).statusCode).toBe(200);
    await h.orm.em.getConnection().execute(`delete from operators where id = ?`, [op.id]);
    expect(await seenAfter(listening, async (app) => (await call(app, 'GET', '/console/v1/me', op.token)).statusCode === 401)).toBeLessThan(API_KEY_CACHE_MAX_MS / 2);
  });

  // last: it moves the shared clock past every session's idle limit
  test('reads sharing the remembered session still record its use once a minute (not within it), and refuse it once it expired', async () => {
    const op = await signedIn('viewer');
    const use = async () => {
      const [row] = await h.orm.em.getConnection().execute<{ last_used_at: string; expires_at: string }[]>(`select last_used_at, expires_at from operator_sessions where operator_id = ?`, [op.id]);
      return { lastUsed: new Date(row!.last_used_at).getTime(), expires: new Date(row!.expires_at).getTime() };
    };
    const signedInAt = await use();
    for (let i = 0; i < 3; i++) expect((await call(cached, 'GET', '/console/v1/me', op.token)).statusCode).toBe(200);
    h.clock.advance(59_999);
    expect((await call(cached, 'GET', '/console/v1/me', op.token)).statusCode).toBe(200);
    expect(await use()).toEqual(signedInAt); // within the minute: nothing written
    h.clock.advance(1);
    expect((await call(cached, 'GET', '/console/v1/users', op.token)).statusCode).toBe(200);
    const touched = await use();
    expect(touched.lastUsed).toBe(h.clock.now().getTime());
    expect(touched.expires).toBe(Math.min(touched.lastUsed + OPERATOR_SESSION_IDLE_MS, signedInAt.lastUsed + OPERATOR_SESSION_MAX_MS));
    h.clock.advance(OPERATOR_SESSION_IDLE_MS);
    const expired = await call(cached, 'GET', '/console/v1/me', op.token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('invalid_operator_session');
  });
});
