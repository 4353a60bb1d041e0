import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emailsTo, makeMarketplace, signUp, startHarness, type Harness } from './harness.js';

/**
 * Per-IP sign-in limits (docs/decisions.md): a storefront's server passes the shopper's address in
 * `X-Client-IP` with its secret key; 30 wrong passwords in 15 minutes, or 15 emailed sign-in/reset
 * links an hour, from one address → 429 for it, so one source cannot lock out more than 3 accounts.
 * The spec's per-account limits stay as they are (accounts.e2e, account-emails.e2e).
 */
const MIN = 60 * 1000;
const password = 'right password';
let h: Harness;
let keys: { secret: string; publishable: string };
let n = 0;
const fresh = (prefix: string) => `${prefix}${++n}@example.com`;

beforeAll(async () => {
  h = await startHarness({ poolMax: 12 });
  keys = await makeMarketplace(h, 'shop');
});
afterAll(() => h.close());

function post(url: string, payload: object, ip?: string, key = keys.secret) {
  return h.request({ method: 'POST', url, key, payload, headers: ip === undefined ? {} : { 'x-client-ip': ip } });
}
const signIn = (email: string, pw: string, ip?: string) => post('/v1/sessions', { email, password: pw }, ip);

describe('wrong passwords per IP: 30 in 15 minutes', () => {
  test('one address failing across 4 accounts locks the first 3 (10 each), then gets 429 itself; the 4th account was never locked', async () => {
    const ip = '203.0.113.7';
    const victims = [fresh('v'), fresh('v'), fresh('v'), fresh('v')];
    for (const email of victims) await signUp(h, keys.secret, { email, password });
    const start = h.clock.now().getTime();
    for (const email of victims.slice(0, 3)) {
      for (let i = 1; i <= 10; i++) expect((await signIn(email, `wrong ${i}`, ip)).statusCode, `${email} attempt ${i}`).toBe(401);
      h.clock.advance(MIN);
    }
    // the 31st attempt from that address, on an account it has not touched, the right password included
    const refused = await signIn(victims[3]!, password, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(refused.json().detail).toContain('from this network');
    expect(Number(refused.headers['retry-after'])).toBe((start + 15 * MIN - h.clock.now().getTime()) / 1000);
    // the 4th account is not locked: its owner signs in from elsewhere (and without a client address)
    expect((await signIn(victims[3]!, password, '198.51.100.1')).statusCode).toBe(201);
    expect((await signIn(victims[3]!, password)).statusCode).toBe(201);
    // the first three are locked per account (the spec's lock), from anywhere
    expect((await signIn(victims[0]!, password, '198.51.100.1')).statusCode).toBe(429);
    // the address's window ends 15 minutes after its first failure: a second before, still 429; then open
    h.clock.set(new Date(start + 15 * MIN - 1000));
    expect((await signIn(victims[3]!, password, ip)).statusCode).toBe(429);
    h.clock.set(new Date(start + 15 * MIN));
    expect((await signIn(victims[3]!, password, ip)).statusCode).toBe(201);
  });

  test('29 failures across 29 addresses, then the right password from the same address works (limit − 1)', async () => {
    const ip = '203.0.113.29';
    const email = fresh('ok');
    await signUp(h, keys.secret, { email, password });
    for (let i = 0; i < 29; i++) expect((await signIn(fresh('spray'), 'Summer2026!', ip)).statusCode).toBe(401);
    expect((await signIn(email, password, ip)).statusCode).toBe(201);
    // the 30th failure fills the window: the next attempt is refused
    expect((await signIn(fresh('spray'), 'Summer2026!', ip)).statusCode).toBe(401);
    expect((await signIn(email, password, ip)).statusCode).toBe(429);
  });

  test('concurrent failures from one address across 40 accounts are counted exactly: 30 are 401, 10 are 429', async () => {
    const ip = '203.0.113.40';
    const results = await Promise.all(Array.from({ length: 40 }, () => signIn(fresh('race'), 'wrong guess', ip)));
    const counts = results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.statusCode]: (acc[r.statusCode] ?? 0) + 1 }), {});
    expect(counts).toEqual({ 401: 30, 429: 10 });
  });

  test('IPv6: one /64 counts as one source; the next /64 is another', async () => {
    for (let i = 0; i < 30; i++) expect((await signIn(fresh('six'), 'wrong', `2001:db8:aa:1::${(i + 1).toString(16)}`)).statusCode).toBe(401);
    expect((await signIn(fresh('six'), 'wrong', '2001:db8:aa:1:ffff:ffff:ffff:ffff')).statusCode).toBe(429);
    expect((await signIn(fresh('six'), 'wrong', '2001:db8:aa:2::1')).statusCode).toBe(401);
    // an IPv4-mapped address is its IPv4 address
    for (let i = 0; i < 30; i++) expect((await signIn(fresh('map'), 'wrong', i % 2 ? '192.0.2.55' : '::ffff:192.0.2.55')).statusCode).toBe(401);
    expect((await signIn(fresh('map'), 'wrong', '192.0.2.55')).statusCode).toBe(429);
  });

  test('without X-Client-IP nothing is counted per IP (as before): 40 failures over 4 unknown addresses are all 401', async () => {
    for (let a = 0; a < 4; a++) {
      const email = fresh('noip');
      for (let i = 0; i < 10; i++) expect((await signIn(email, 'wrong')).statusCode).toBe(401);
    }
  });
});

describe('emailed links per IP: 15 an hour (sign-in and reset together)', () => {
  test('15 link requests over 15 addresses → 202; the 16th → 429 before it uses up anything of its address', async () => {
    const ip = '203.0.113.99';
    const start = h.clock.now().getTime();
    for (let i = 0; i < 15; i++) {
      const url = i % 2 ? '/v1/password-resets' : '/v1/sessions/email-link';
      expect((await post(url, { email: fresh('links') }, ip)).statusCode, `request ${i + 1}`).toBe(202);
    }
    h.clock.advance(10 * MIN);
    const victim = fresh('victim');
    await signUp(h, keys.secret, { email: victim });
    const refused = await post('/v1/sessions/email-link', { email: victim }, ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(50 * 60);
    expect(refused.json().detail).toContain('from this network');
    expect((await post('/v1/password-resets', { email: victim }, ip)).statusCode).toBe(429);
    // the victim's own five links this hour are all still there, from another address
    for (let i = 0; i < 5; i++) expect((await post('/v1/sessions/email-link', { email: victim }, '198.51.100.2')).statusCode).toBe(202);
    expect((await emailsTo(h, keys.secret, victim)).filter((m) => m.template === 'sign_in_link')).toHaveLength(5);
    h.clock.set(new Date(start + 60 * MIN));
    expect((await post('/v1/sessions/email-link', { email: fresh('links') }, ip)).statusCode).toBe(202);
  });
});

describe('X-Client-IP is taken only with a secret key, and must be one address', () => {
  test.each(['', 'not an ip', '203.0.113.7, 10.0.0.1', '203.0.113.256', 'fe80::1%eth0', ' 203.0.113.7'])('%j with the secret key → 400 naming the header', async (value) => {
    const res = await post('/v1/sessions', { email: fresh('bad'), password: 'x' }, value);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'malformed_request', errors: [{ location: 'header.X-Client-IP', value }] });
  });

  test('with a publishable key it is ignored (that key may not name a client address)', async () => {
    const res = await h.request({ method: 'GET', url: '/v1/marketplace', key: keys.publishable, headers: { 'x-client-ip': 'not an ip' } });
    expect(res.statusCode).toBe(200);
  });

  test('over /trpc (the reference storefront) the same header counts', async () => {
    const ip = '203.0.113.200';
    const trpc = (email: string) =>
      h.app.inject({
        method: 'POST',
        url: '/trpc/sessions.create',
        headers: { authorization: `Bearer ${keys.secret}`, 'content-type': 'application/json', 'x-client-ip': ip },
        payload: { email, password: 'wrong' },
      });
    for (let i = 0; i < 30; i++) expect((await trpc(fresh('t'))).statusCode).toBe(401);
    const refused = await trpc(fresh('t'));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
