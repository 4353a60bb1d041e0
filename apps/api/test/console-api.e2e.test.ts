import { describe, expect, test, beforeAll } from 'vitest';
import { TOTP, Secret } from 'otpauth';
import { backOfficeRouter } from '@hm/contract/back-office';
import { restRoutes } from '@hm/rest';
import type { Meta } from '@hm/contract/trpc';
import { sellingSuite } from './selling.suite.js';
import { emailsTo, tokenOf } from './harness.js';

/**
 * The back office's API (issue 26) at /console/v1: operators sign in (password, TOTP, lockout),
 * admins change things, viewers only read (403), another marketplace's operator sees 404, no or the
 * wrong credentials are 401, and every write leaves exactly one audit row.
 */
const s = sellingSuite();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
type Op = { token: string; id: string; email: string };

/** through the harness: every answer is checked against the console's own OpenAPI document */
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token?: string, payload?: unknown, headers: Record<string, string> = {}) =>
  s.h.request({ method, url, ...(token ? { key: token } : {}), headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

/** Invites through the command line's definition, accepts over HTTP: a signed-in operator. */
async function operator(slug: string, email: string, role: 'admin' | 'viewer'): Promise<Op> {
  const out = await s.h.console.operators.create({ marketplace: slug, email, role });
  const token = new URL(out.invitation_url).searchParams.get('token')!;
  const res = await call('POST', '/console/v1/invitations/accept', undefined, { token, password: 'correct horse battery' });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body.token).toMatch(/^ops_/);
  expect(body.operator).toMatchObject({ email, role });
  return { token: body.token, id: body.operator.id, email };
}

async function auditCount(token: string): Promise<number> {
  let n = 0;
  let cursor: string | undefined;
  do {
    const res = await call('GET', `/console/v1/audit?limit=100${cursor ? `&cursor=${cursor}` : ''}`, token);
    expect(res.statusCode, res.body).toBe(200);
    n += res.json().items.length;
    cursor = res.json().next_cursor;
  } while (cursor);
  return n;
}

const codeAt = (secret: string, at: Date) => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });

let admin: Op;
let viewer: Op;
let stranger: Op; // an admin of another marketplace
let pending: string[];
let supportConversation: string;
let buyerId: string;

beforeAll(async () => {
  admin = await operator('curated', 'boss@curated.example', 'admin');
  viewer = await operator('curated', 'watch@curated.example', 'viewer');
  stranger = await operator('open', 'boss@open.example', 'admin');
  pending = [];
  for (let i = 0; i < 3; i++) {
    const id = await s.draftWithPhoto(s.curated, s.curator, s.complete(s.curated));
    // the third asks for a valuation: the team answers with an offer
    const res = await s.publish(s.curated, s.curator, id, i === 2 ? { ask_valuation: true } : {});
    expect(res.json().status, res.body).toBe(i === 2 ? 'pending_valuation' : 'pending_approval');
    pending.push(id);
  }
  const conv = await s.h.request({ method: 'POST', url: '/v1/me/conversations', key: s.curated.secret, session: s.curator, payload: { support: true, body: 'Where is my parcel?' } });
  expect(conv.statusCode, conv.body).toBe(201);
  supportConversation = conv.json().id ?? conv.json().conversation.id;
  buyerId = (await s.h.request({ method: 'GET', url: '/v1/me', key: s.curated.secret, session: s.curator })).json().id;
});

describe('invitations and sign-in', () => {
  test('the command line prints one line with the link; the link works once and for 7 days', async () => {
    const out = await s.h.console.operators.create({ marketplace: 'curated', email: 'late@curated.example', role: 'viewer' });
    expect(out.invitation_url).toMatch(/\/invitations\/accept\?token=opi_[A-Za-z0-9_-]+$/);
    const emails = await emailsTo(s.h, s.curated.secret, 'late@curated.example');
    expect(emails[0]!.links[0]).toBe(out.invitation_url);
    const token = tokenOf(out.invitation_url);
    s.h.clock.advance(7 * DAY);
    const expired = await call('POST', '/console/v1/invitations/accept', undefined, { token, password: 'correct horse battery' });
    expect([expired.statusCode, expired.json().code]).toEqual([422, 'link_expired']);
    s.h.clock.advance(-7 * DAY);
    s.h.clock.advance(7 * DAY - 1000);
    expect((await call('POST', '/console/v1/invitations/accept', undefined, { token, password: 'correct horse battery' })).statusCode).toBe(200);
    s.h.clock.advance(-(7 * DAY - 1000));
    const again = await call('POST', '/console/v1/invitations/accept', undefined, { token, password: 'correct horse battery' });
    expect([again.statusCode, again.json().code]).toEqual([422, 'link_used']);
    const unknown = await call('POST', '/console/v1/invitations/accept', undefined, { token: 'opi_nope', password: 'correct horse battery' });
    expect([unknown.statusCode, unknown.json().code]).toEqual([422, 'link_invalid']);
  });

  test('POST /sessions signs in (201) and sets the httpOnly SameSite=Strict cookie; DELETE /sessions/current ends it', async () => {
    const res = await call('POST', '/console/v1/sessions', undefined, { marketplace: 'curated', email: 'BOSS@curated.example', password: 'correct horse battery' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().token).toMatch(/^ops_/);
    expect(res.json().operator).toMatchObject({ id: admin.id, email: admin.email, role: 'admin' });
    expect(String(res.headers['set-cookie'])).toMatch(/^hm_console=ops_[^;]+; Path=\/console; HttpOnly; SameSite=Strict/);
    const me = await call('GET', '/console/v1/me', res.json().token);
    expect(me.json()).toMatchObject({ id: admin.id, email: admin.email, role: 'admin', totp_enabled: false });
    expect((await call('DELETE', '/console/v1/sessions/current', res.json().token)).statusCode).toBe(204);
    expect((await call('GET', '/console/v1/me', res.json().token)).json().code).toBe('invalid_operator_session');
  });

  test('wrong marketplace, address or password: the same 401; 10 failures lock the address for 15 minutes (429 + Retry-After)', async () => {
    await s.h.console.operators.create({ marketplace: 'curated', email: 'lock@curated.example', role: 'viewer' }).then(async (o) => {
      await call('POST', '/console/v1/invitations/accept', undefined, { token: tokenOf(o.invitation_url), password: 'correct horse battery' });
    });
    const wrongSlug = await call('POST', '/console/v1/sessions', undefined, { marketplace: 'nowhere', email: 'lock@curated.example', password: 'correct horse battery' });
    expect([wrongSlug.statusCode, wrongSlug.json().code]).toEqual([401, 'invalid_credentials']);
    for (let i = 0; i < 10; i++) {
      const r = await call('POST', '/console/v1/sessions', undefined, { marketplace: 'curated', email: 'lock@curated.example', password: 'wrong password' });
      expect(r.statusCode).toBe(401);
    }
    const locked = await call('POST', '/console/v1/sessions', undefined, { marketplace: 'curated', email: 'lock@curated.example', password: 'correct horse battery' });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    s.h.clock.advance(15 * MIN);
    expect((await call('POST', '/console/v1/sessions', undefined, { marketplace: 'curated', email: 'lock@curated.example', password: 'correct horse battery' })).statusCode).toBe(201);
  });

  test('a session ends 12 hours after last use, and 7 days after sign-in however it is used', async () => {
    const signIn = async () => (await call('POST', '/console/v1/sessions', undefined, { marketplace: 'curated', email: viewer.email, password: 'correct horse battery' })).json().token as string;
    const idle = await signIn();
    s.h.clock.advance(12 * HOUR - 1000);
    expect((await call('GET', '/console/v1/me', idle)).statusCode).toBe(200);
    s.h.clock.advance(12 * HOUR);
    expect((await call('GET', '/console/v1/me', idle)).json().code).toBe('invalid_operator_session');

    const busy = await signIn();
    for (let h = 0; h < 7 * 24 - 11; h += 11) {
      s.h.clock.advance(11 * HOUR);
      expect((await call('GET', '/console/v1/me', busy)).statusCode).toBe(200);
    }
    s.h.clock.advance(11 * HOUR);
    expect((await call('GET', '/console/v1/me', busy)).json().code).toBe('invalid_operator_session');
  });

  test('two-factor codes: enrol, confirm with a code of the next step, then sign-in asks for a code (±1 step, each once)', async () => {
    const o = await operator('curated', 'twofa@curated.example', 'admin');
    const start = await call('POST', '/console/v1/me/totp', o.token);
    expect(start.statusCode, start.body).toBe(200);
    const { secret, otpauth_url } = start.json();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\/.*secret=.*&algorithm=SHA1&digits=6&period=30/);
    const now = s.h.clock.now();
    const wrongConfirm = await call('POST', '/console/v1/me/totp/confirm', o.token, { code: codeAt(secret, new Date(now.getTime() + 90_000)) });
    expect([wrongConfirm.statusCode, wrongConfirm.json().code]).toEqual([401, 'totp_invalid']);
    const ok = await call('POST', '/console/v1/me/totp/confirm', o.token, { code: codeAt(secret, new Date(now.getTime() + 30_000)) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await call('GET', '/console/v1/me', o.token)).json().totp_enabled).toBe(true);

    const body = { marketplace: 'curated', email: o.email, password: 'correct horse battery' };
    const none = await call('POST', '/console/v1/sessions', undefined, body);
    expect([none.statusCode, none.json().code]).toEqual([401, 'totp_required']);
    s.h.clock.advance(5 * MIN);
    const t = s.h.clock.now().getTime();
    const wrong = await call('POST', '/console/v1/sessions', undefined, { ...body, code: codeAt(secret, new Date(t + 60_000)) });
    expect([wrong.statusCode, wrong.json().code]).toEqual([401, 'totp_invalid']);
    const before = await call('POST', '/console/v1/sessions', undefined, { ...body, code: codeAt(secret, new Date(t - 30_000)) });
    expect(before.statusCode, before.body).toBe(201);
    // a code is spent once it is used: the same step again is refused
    const replay = await call('POST', '/console/v1/sessions', undefined, { ...body, code: codeAt(secret, new Date(t - 30_000)) });
    expect(replay.json().code).toBe('totp_invalid');
    const after = await call('POST', '/console/v1/sessions', undefined, { ...body, code: codeAt(secret, new Date(t + 30_000)) });
    expect(after.statusCode, after.body).toBe(201);
  });
});

/** The tests above move the clock by days: sign the three in again. */
async function signInAgain() {
  for (const o of [admin, viewer, stranger]) {
    const slug = o === stranger ? 'open' : 'curated';
    const res = await call('POST', '/console/v1/sessions', undefined, { marketplace: slug, email: o.email, password: 'correct horse battery' });
    expect(res.statusCode, res.body).toBe(201);
    o.token = res.json().token;
  }
}

describe('who may call', () => {
  beforeAll(signInAgain);
  test('no token, an API key or an unknown token: 401 on /console/v1; an operator token: 401 on /v1', async () => {
    expect((await call('GET', '/console/v1/listings')).json().code).toBe('operator_session_required');
    const withKey = await call('GET', '/console/v1/listings', s.curated.secret);
    expect([withKey.statusCode, withKey.json().code]).toEqual([401, 'invalid_operator_session']);
    expect((await call('GET', '/console/v1/listings', 'ops_unknown')).statusCode).toBe(401);
    expect((await call('GET', '/v1/marketplace', admin.token)).statusCode).toBe(401);
    expect((await call('POST', '/console/trpc/listings.approve', s.curated.secret, { id: pending[0] })).statusCode).toBe(401);
  });

  test('a cookie-authenticated write must come from the app’s Origin', async () => {
    const cookie = { cookie: `hm_console=${viewer.token}` };
    expect((await call('GET', '/console/v1/me', undefined, undefined, cookie)).statusCode).toBe(200);
    const noOrigin = await call('DELETE', '/console/v1/sessions/current', undefined, undefined, cookie);
    expect([noOrigin.statusCode, noOrigin.json().code]).toEqual([403, 'forbidden']);
    const foreign = await call('DELETE', '/console/v1/sessions/current', undefined, undefined, { ...cookie, origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
  });

  test('/console/v1/openapi.json documents the back office, and /v1/openapi.json none of it', async () => {
    const doc = (await call('GET', '/console/v1/openapi.json')).json();
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(doc.servers[0].url).toMatch(/\/console\/v1$/);
    for (const route of restRoutes<Meta>(backOfficeRouter)) expect(doc.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
    const api = (await call('GET', '/v1/openapi.json')).json();
    expect(Object.keys(api.paths).filter((p) => p.startsWith('/console') || p === '/audit' || p === '/operators')).toEqual([]);
  });
});

/** Every back-office operation: admin can, viewer 403 (writes), another marketplace's admin 404 (ids), one audit row per write. */
describe('operations', () => {
  beforeAll(signInAgain);
  const writes: { name: string; method: 'POST' | 'PATCH'; url: () => string; body?: () => unknown; status: number; action: string }[] = [
    { name: 'approve', method: 'POST', url: () => `/console/v1/listings/${pending[0]}/approve`, status: 200, action: 'listing.approve' },
    { name: 'deny', method: 'POST', url: () => `/console/v1/listings/${pending[1]}/deny`, body: () => ({ note: 'Too dark.' }), status: 200, action: 'listing.deny' },
    { name: 'offer', method: 'POST', url: () => `/console/v1/listings/${pending[2]}/offer`, body: () => ({ price: { amount: 120000, currency: 'SEK' }, note: 'Our offer' }), status: 200, action: 'listing.offer' },
    { name: 'reply', method: 'POST', url: () => `/console/v1/conversations/${supportConversation}/messages`, body: () => ({ body: 'On its way.' }), status: 201, action: 'conversation.reply' },
    { name: 'block', method: 'POST', url: () => `/console/v1/users/${buyerId}/block`, status: 200, action: 'user.block' },
    { name: 'unblock', method: 'POST', url: () => `/console/v1/users/${buyerId}/unblock`, status: 200, action: 'user.unblock' },
    { name: 'invite', method: 'POST', url: () => '/console/v1/operators', body: () => ({ email: 'new@curated.example', role: 'viewer' }), status: 201, action: 'operator.invite' },
    { name: 'create key', method: 'POST', url: () => '/console/v1/keys', body: () => ({ kind: 'publishable' }), status: 201, action: 'api_key.create' },
    { name: 'settings', method: 'PATCH', url: () => '/console/v1/settings', body: () => ({ commission_percent: 12 }), status: 200, action: 'settings.update' },
    { name: 'revoke key', method: 'POST', url: () => `/console/v1/keys/${spareKey}/revoke`, status: 200, action: 'api_key.revoke' },
  ];
  /** a key of marketplace A made from the command line, for the revoke row */
  let spareKey: string;
  beforeAll(async () => {
    spareKey = (await s.h.console.keys.create({ marketplace: 'curated', kind: 'publishable' })).key.id;
  });

  for (const w of writes) {
    test(`${w.name}: viewer 403, other marketplace 404, no auth 401, admin ${w.status} with exactly one audit row`, async () => {
      const byViewer = await call(w.method, w.url(), viewer.token, w.body?.());
      expect([byViewer.statusCode, byViewer.json().code], byViewer.body).toEqual([403, 'forbidden']);
      if (!['invite', 'create key', 'settings'].includes(w.name)) { // those act on the caller's own marketplace
        const byStranger = await call(w.method, w.url(), stranger.token, w.body?.());
        expect(byStranger.statusCode, byStranger.body).toBe(404);
      }
      expect((await call(w.method, w.url(), undefined, w.body?.())).statusCode).toBe(401);
      const before = await auditCount(admin.token);
      const res = await call(w.method, w.url(), admin.token, w.body?.());
      expect(res.statusCode, res.body).toBe(w.status);
      expect(await auditCount(admin.token)).toBe(before + 1);
      const [last] = (await call('GET', '/console/v1/audit?limit=1', admin.token)).json().items;
      expect(last).toMatchObject({ actor: { type: 'operator', id: admin.id, email: admin.email }, action: w.action });
      expect(JSON.stringify(last.data)).not.toMatch(/password|ops_|opi_|sk_|pk_/);
    });
  }

  test('API keys: the token is in the creating answer only; the list shows hints (viewer too); a revoked key is 401 on /v1; twice is 409', async () => {
    const created = await call('POST', '/console/v1/keys', admin.token, { kind: 'secret' });
    expect(created.statusCode, created.body).toBe(201);
    const { key, token } = created.json();
    expect(token).toMatch(/^sk_test_/);
    expect(key).toMatchObject({ kind: 'secret', mode: 'test', hint: `sk_test_…${token.slice(-4)}`, revoked_at: null });
    const list = await call('GET', '/console/v1/keys', viewer.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items.map((k: { id: string }) => k.id)).toContain(key.id);
    expect(list.body).not.toContain(token);
    expect((await call('GET', '/console/v1/keys', stranger.token)).json().items.map((k: { id: string }) => k.id)).not.toContain(key.id);
    expect((await s.h.request({ method: 'GET', url: '/v1/categories', key: token })).statusCode).toBe(200);
    expect((await call('POST', `/console/v1/keys/${key.id}/revoke`, stranger.token)).statusCode).toBe(404);
    expect((await s.h.request({ method: 'GET', url: '/v1/categories', key: token })).statusCode).toBe(200); // the stranger changed nothing
    const revoked = await call('POST', `/console/v1/keys/${key.id}/revoke`, admin.token);
    expect([revoked.statusCode, revoked.json().key.revoked_at]).toEqual([200, expect.any(String)]);
    expect((await s.h.request({ method: 'GET', url: '/v1/categories', key: token })).statusCode).toBe(401);
    expect((await call('POST', `/console/v1/keys/${key.id}/revoke`, admin.token)).statusCode).toBe(409);
  });

  test('settings: a viewer reads them, an admin changes any subset (a bad one is 422 at its field, nothing recorded), each marketplace its own', async () => {
    const read = await call('GET', '/console/v1/settings', viewer.token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().marketplace).toMatchObject({ slug: 'curated' });
    expect((await call('GET', '/console/v1/settings', stranger.token)).json().marketplace).toMatchObject({ slug: 'open' });
    const changed = await call('PATCH', '/console/v1/settings', admin.token, { commission_percent: 15 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call('GET', '/console/v1/settings', viewer.token)).body).toBe((await call('GET', '/console/v1/settings', admin.token)).body);
    expect(JSON.stringify(changed.json().marketplace)).toContain('15');
    const before = await auditCount(admin.token);
    const bad = await call('PATCH', '/console/v1/settings', admin.token, { commission_percent: 101 });
    expect(bad.statusCode, bad.body).toBe(422);
    expect(bad.json().errors.map((e: { location: string }) => e.location)).toEqual(['body.commission_percent']);
    expect(await auditCount(admin.token)).toBe(before);
    expect((await call('GET', '/console/v1/settings', stranger.token)).body).not.toContain('"curated"');
  });

  test('orders: list and read (viewer), move (admin only; another marketplace’s or an unknown order is 404)', async () => {
    const list = await call('GET', '/console/v1/orders?state=disputed&chargeback=false', viewer.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items).toEqual([]);
    const unknown = '0190f0e0-0000-7000-8000-000000000001';
    expect((await call('GET', `/console/v1/orders/${unknown}`, viewer.token)).statusCode).toBe(404);
    const byViewer = await call('POST', `/console/v1/orders/${unknown}/transitions`, viewer.token, { transition: 'resolve-received' });
    expect([byViewer.statusCode, byViewer.json().code]).toEqual([403, 'forbidden']);
    const before = await auditCount(admin.token);
    expect((await call('POST', `/console/v1/orders/${unknown}/transitions`, admin.token, { transition: 'resolve-received' })).statusCode).toBe(404);
    const bad = await call('POST', `/console/v1/orders/${unknown}/transitions`, admin.token, { transition: 'explode' });
    expect([bad.statusCode, bad.json().errors[0].location]).toEqual([422, 'body.transition']);
    expect(await auditCount(admin.token)).toBe(before); // nothing changed, nothing recorded
  });

  test('Idempotency-Key as on /v1: a retry replays the first answer and leaves no second audit row', async () => {
    const key = '6f1c2a4e-8b7d-4c3a-9e2f-1a2b3c4d5e6f';
    const before = await auditCount(admin.token);
    const first = await call('POST', `/console/v1/conversations/${supportConversation}/messages`, admin.token, { body: 'Once.' }, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(201);
    const again = await call('POST', `/console/v1/conversations/${supportConversation}/messages`, admin.token, { body: 'Once.' }, { 'idempotency-key': key });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await auditCount(admin.token)).toBe(before + 1);
    const other = await call('POST', `/console/v1/conversations/${supportConversation}/messages`, admin.token, { body: 'Twice?' }, { 'idempotency-key': key });
    expect([other.statusCode, other.json().code]).toEqual([422, 'idempotency_key_reused']);
  });

  test('reads: listings by status with cursor paging, support inbox, users by email, operators, audit — viewer can, other marketplace sees none of it', async () => {
    const page1 = await call('GET', '/console/v1/listings?limit=1', viewer.token);
    expect(page1.statusCode, page1.body).toBe(200);
    expect(page1.json().items).toHaveLength(1);
    const page2 = await call('GET', `/console/v1/listings?limit=1&cursor=${page1.json().next_cursor}`, viewer.token);
    expect(page2.json().items[0].id).not.toBe(page1.json().items[0].id);
    const denied = await call('GET', '/console/v1/listings?status=denied', viewer.token);
    expect(denied.json().items.map((l: { id: string }) => l.id)).toEqual([pending[1]]);
    expect((await call('GET', '/console/v1/listings?status=denied', stranger.token)).json().items).toEqual([]);
    expect((await call('GET', `/console/v1/listings/${pending[0]}`, stranger.token)).statusCode).toBe(404);
    expect((await call('GET', '/console/v1/listings?status=nope', viewer.token)).statusCode).toBe(422);

    const support = await call('GET', '/console/v1/support?unanswered=true', viewer.token);
    expect(support.statusCode, support.body).toBe(200);
    expect(support.json().items).toEqual([]); // answered above
    // the CLI's definition and the back office's give the same inbox
    const fromCli = await s.h.console.support.list({ marketplace: 'curated', unanswered: false, limit: 100 });
    expect((await call('GET', '/console/v1/support', viewer.token)).json().items).toEqual(JSON.parse(JSON.stringify(fromCli.items)));
    expect((await call('GET', '/console/v1/support', viewer.token)).json().items.map((c: { id: string }) => c.id)).toContain(supportConversation);
    expect((await call('GET', `/console/v1/conversations/${supportConversation}`, stranger.token)).statusCode).toBe(404);

    const users = await call('GET', '/console/v1/users?email=CUR@example.com', viewer.token);
    expect(users.json().items.map((u: { id: string }) => u.id)).toEqual([buyerId]);
    expect((await call('GET', '/console/v1/users?email=cur@example.com', stranger.token)).json().items).toEqual([]);

    const team = (await call('GET', '/console/v1/operators', viewer.token)).json().items.map((o: { email: string }) => o.email);
    expect(team).toContain(admin.email);
    expect(team).not.toContain(stranger.email);
  });

  test('audit: newest first, filters, sign-ins (success and failure), CLI actions as `cli`, rows cannot be changed', async () => {
    const items = (await call('GET', '/console/v1/audit?limit=100', viewer.token)).json().items as { at: string; action: string; actor: { type: string }; request_id: string }[];
    for (let i = 1; i < items.length; i++) expect(items[i - 1]!.at >= items[i]!.at).toBe(true);
    expect(items.some((e) => e.action === 'session.sign_in')).toBe(true);
    expect(items.some((e) => e.action === 'session.sign_in_failed')).toBe(true);
    expect(items.some((e) => e.action === 'operator.invite' && e.actor.type === 'cli')).toBe(true);
    const filtered = (await call('GET', `/console/v1/audit?action=listing.deny&target_type=listing&target_id=${pending[1]}`, viewer.token)).json().items;
    expect(filtered).toHaveLength(1);
    expect(filtered[0].data).toEqual({ id: pending[1], note: 'Too dark.' });
    expect((await call('GET', `/console/v1/audit?operator=${stranger.id}`, viewer.token)).json().items).toEqual([]);
    const conn = s.h.orm.em.getConnection();
    await expect(conn.execute(`update audit_entries set action = 'x'`)).rejects.toThrow(/append-only/);
    await expect(conn.execute(`delete from audit_entries`)).rejects.toThrow(/append-only/);
  });
});
