import { describe, expect, test, beforeAll } from 'vitest';
import { TOTP, Secret } from 'otpauth';
import { backOfficeRouter } from '@hm/contract/back-office';
import { restRoutes } from '@hm/rest';
import type { Meta } from '@hm/contract/trpc';
import { sellingSuite } from './selling.suite.js';
import { consoleClient, type Op } from './console.suite.js';
import { emailsTo, tokenOf } from './harness.js';

/**
 * The back office's API (issue 26) at /console/v1, who gets in: operators sign in (invitation,
 * password, TOTP, lockout, session ends), and no or the wrong credentials are 401 (the operations
 * themselves: console-api.e2e.test.ts).
 */
const s = sellingSuite();
const { call, operator } = consoleClient(s);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const codeAt = (secret: string, at: Date) => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });

let admin: Op;
let viewer: Op;

beforeAll(async () => {
  admin = await operator('curated', 'boss@curated.example', 'admin');
  viewer = await operator('curated', 'watch@curated.example', 'viewer');
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

/** The tests above move the clock by days: sign the two in again. */
async function signInAgain() {
  for (const o of [admin, viewer]) {
    const res = await call('POST', '/console/v1/sessions', undefined, { marketplace: 'curated', email: o.email, password: 'correct horse battery' });
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
    expect((await call('POST', '/console/trpc/listings.approve', s.curated.secret, { id: '0190f0e0-0000-7000-8000-000000000001' })).statusCode).toBe(401);
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
