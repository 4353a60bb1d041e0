import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emailsTo, makeMarketplace, signUp, startHarness, tokenOf, type Harness } from './harness.js';

const MIN = 60 * 1000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

let h: Harness;
let keys: { secret: string; publishable: string };
let other: { secret: string; publishable: string };
/** every response body seen, to prove no password hash or unrequested token ever leaves the API */
const bodies: string[] = [];

let n = 0;
const fresh = (prefix = 'user') => `${prefix}${++n}@example.com`;

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, opts: { payload?: unknown; session?: string; key?: string } = {}) {
  const res = await h.request({ method, url, key: opts.key ?? keys.secret, session: opts.session, ...(opts.payload !== undefined ? { payload: opts.payload as object } : {}) });
  bodies.push(res.body);
  return res;
}

beforeAll(async () => {
  h = await startHarness();
  keys = await makeMarketplace(h, 'shop');
  other = await makeMarketplace(h, 'other');
});
afterAll(() => h.close());

describe('sign-up (POST /v1/users)', () => {
  test('201 SignedIn: the user, a 256-bit session token and its expiry 30 days out; a confirmation email in the default language', async () => {
    const email = fresh('Mixed.Case');
    const res = await call('POST', '/v1/users', { payload: { email, password: 'correct horse', first_name: 'Ann', last_name: 'Berg', display_name: 'annb', bio: 'Hi', phone: '+46 70 000' } });
    expect(res.statusCode).toBe(201);
    const { session, user } = res.json();
    expect(session.token).toMatch(/^sess_[A-Za-z0-9_-]{43}$/);
    expect(session.expires_at).toBe(new Date(h.clock.now().getTime() + 30 * DAY).toISOString());
    expect(user).toEqual({
      id: expect.any(String),
      email,
      email_verified: false,
      first_name: 'Ann',
      last_name: 'Berg',
      display_name: 'annb',
      bio: 'Hi',
      phone: '+46 70 000',
      has_password: true,
      locale: '',
      created_at: h.clock.now().toISOString(),
    });
    const [mail, ...more] = await emailsTo(h, keys.secret, email);
    expect(more).toHaveLength(0);
    expect(mail).toMatchObject({ to: email, template: 'email_confirmation', locale: 'en', subject: 'Confirm your email address' });
    expect(mail!.links[0]).toMatch(/^https:\/\/shop\.example\/en\/auth\/verify-email\?token=[A-Za-z0-9_-]{43}$/);
    expect(mail!.text).toContain(mail!.links[0]);
    expect(mail!.html).toContain(mail!.links[0]);
  });

  test('without a password: signed in, has_password false', async () => {
    const res = await call('POST', '/v1/users', { payload: { email: fresh() } });
    expect(res.statusCode).toBe(201);
    expect(res.json().user.has_password).toBe(false);
  });

  test('locale decides the email language and the link language', async () => {
    const email = fresh();
    await signUp(h, keys.secret, { email, password: 'lösenord123', first_name: 'Åsa', locale: 'sv' });
    const [mail] = await emailsTo(h, keys.secret, email);
    expect(mail).toMatchObject({ locale: 'sv', subject: 'Bekräfta din e-postadress' });
    expect(mail!.text).toContain('Hej Åsa,');
    expect(mail!.links[0]).toMatch(/^https:\/\/shop\.example\/sv\/auth\/verify-email\?token=/);
  });

  test('409 email_in_use for the same address in another case; the other marketplace may reuse it', async () => {
    const email = fresh();
    await signUp(h, keys.secret, { email, password: 'password1' });
    const again = await call('POST', '/v1/users', { payload: { email: email.toUpperCase(), password: 'password2' } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'email_in_use', errors: [{ location: 'body.email' }] });
    expect((await call('POST', '/v1/users', { key: other.secret, payload: { email, password: 'password3' } })).statusCode).toBe(201);
  });

  test('concurrent sign-ups with one address: one 201, the rest 409', async () => {
    const email = fresh();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => call('POST', '/v1/users', { payload: { email: i % 2 ? email : email.toUpperCase(), password: 'password1' } })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    // the refused sign-ups rolled back their confirmation emails with them
    expect(await emailsTo(h, keys.secret, email)).toHaveLength(1);
  });

  test('422 lists every problem at once and never echoes the password', async () => {
    const res = await call('POST', '/v1/users', {
      payload: { email: 'not-an-address', password: 'short', first_name: 'x'.repeat(101), bio: 'b'.repeat(2001), phone: '1'.repeat(41), locale: 'fr', extra: 1 },
    });
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors as { location: string; value: unknown }[];
    expect(errors.map((e) => e.location).sort()).toEqual(['body.bio', 'body.email', 'body.extra', 'body.first_name', 'body.locale', 'body.password', 'body.phone']);
    expect(errors.find((e) => e.location === 'body.password')!.value).toBeNull();
    expect(res.body).not.toContain('short');
  });

  test.each([
    ['password of 7 characters', { password: 'a'.repeat(7) }, 422],
    ['password of 8 characters', { password: 'a'.repeat(8) }, 201],
    ['password of 128 characters', { password: 'a'.repeat(128) }, 201],
    ['password of 129 characters', { password: 'a'.repeat(129) }, 422],
    ['names of 100 characters', { first_name: 'a'.repeat(100), last_name: 'b'.repeat(100), display_name: 'c'.repeat(100) }, 201],
    ['bio of 2000, phone of 40', { bio: 'a'.repeat(2000), phone: '1'.repeat(40) }, 201],
  ])('limits: %s → %s', async (_name, extra, status) => {
    expect((await call('POST', '/v1/users', { payload: { email: fresh(), ...extra } })).statusCode).toBe(status);
  });

  test('email of 254 characters is accepted, 255 is not', async () => {
    const local = (len: number) => `${'a'.repeat(64)}@${'b'.repeat(len - 64 - 1 - 4 - 63 - 1 - 63 - 1)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`;
    expect(local(254)).toHaveLength(254);
    expect((await call('POST', '/v1/users', { payload: { email: local(254) } })).statusCode).toBe(201);
    expect((await call('POST', '/v1/users', { payload: { email: local(255) } })).statusCode).toBe(422);
  });

  test('passwords are stored as argon2id with m=19 MiB, t=2, p=1; never in a response', async () => {
    const email = fresh();
    await signUp(h, keys.secret, { email, password: 'correct horse' });
    const [row] = await h.orm.em.getConnection().execute<{ password_hash: string }[]>(`select password_hash from users where email = ?`, [email]);
    expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(row!.password_hash).not.toContain('correct horse');
  });

  test('publishable keys cannot reach accounts: 403 on every account endpoint (docs/decisions.md)', async () => {
    const cases: [string, string, object][] = [
      ['POST', '/v1/users', { email: fresh() }],
      ['POST', '/v1/sessions', { email: fresh(), password: 'password1' }],
      ['POST', '/v1/sessions/email-link', { email: fresh() }],
      ['POST', '/v1/sessions/from-link', { token: 'x' }],
      ['POST', '/v1/email-verifications', { token: 'x' }],
      ['POST', '/v1/password-resets', { email: fresh() }],
      ['POST', '/v1/password-resets/confirm', { token: 'x', password: 'password1' }],
    ];
    for (const [method, url, payload] of cases) {
      const r = await call(method as 'POST', url, { key: keys.publishable, payload });
      expect(r.json(), url).toMatchObject({ status: 403, code: 'publishable_key_not_allowed' });
    }
  });
});

describe('password sign-in (POST /v1/sessions)', () => {
  const password = 'right password';
  let email: string;
  beforeAll(async () => {
    email = fresh();
    await signUp(h, keys.secret, { email, password });
  });

  test('201 SignedIn, address compared case-insensitively; each sign-in is its own session', async () => {
    const a = await call('POST', '/v1/sessions', { payload: { email: email.toUpperCase(), password } });
    const b = await call('POST', '/v1/sessions', { payload: { email, password } });
    expect(a.statusCode).toBe(201);
    expect(a.json().user.email).toBe(email);
    expect(a.json().session.token).not.toBe(b.json().session.token);
  });

  test('wrong password and unknown address give the same 401 invalid_credentials', async () => {
    const wrong = await call('POST', '/v1/sessions', { payload: { email, password: 'nope nope' } });
    const unknown = await call('POST', '/v1/sessions', { payload: { email: fresh('nobody'), password: 'nope nope' } });
    for (const r of [wrong, unknown]) {
      expect(r.statusCode).toBe(401);
      expect(r.json()).toMatchObject({ code: 'invalid_credentials', detail: 'The email address or password is wrong.' });
    }
  });

  test("a user of marketplace A cannot sign in through marketplace B's key", async () => {
    const r = await call('POST', '/v1/sessions', { key: other.secret, payload: { email, password } });
    expect(r.statusCode).toBe(401);
  });

  test('an account without a password cannot sign in with one', async () => {
    const linkOnly = fresh();
    await signUp(h, keys.secret, { email: linkOnly });
    expect((await call('POST', '/v1/sessions', { payload: { email: linkOnly, password: 'anything at all' } })).statusCode).toBe(401);
  });

  test('422 for missing fields, listed together', async () => {
    const r = await call('POST', '/v1/sessions', { payload: {} });
    expect(r.statusCode).toBe(422);
    expect(r.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.email', 'body.password']);
  });
});

describe('wrong-password lock: 10 in 15 minutes', () => {
  const password = 'right password';

  test('10 wrong → 401 each; the 11th attempt, even with the right password → 429 with Retry-After for the rest of the window; then it opens', async () => {
    const email = fresh('lock');
    await signUp(h, keys.secret, { email, password });
    const start = h.clock.now().getTime();
    for (let i = 1; i <= 10; i++) {
      const r = await call('POST', '/v1/sessions', { payload: { email, password: `wrong ${i}` } });
      expect(r.statusCode, `attempt ${i}`).toBe(401);
      h.clock.advance(30 * 1000);
    }
    // 10 × 30 s passed since the first failure: 10 minutes of the 15 remain … minus the last step
    const locked = await call('POST', '/v1/sessions', { payload: { email: email.toUpperCase(), password } });
    expect(locked.statusCode).toBe(429);
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBe((start + 15 * MIN - h.clock.now().getTime()) / 1000);
    expect(locked.json()).toMatchObject({ code: 'rate_limited', status: 429 });
    h.clock.set(new Date(start + 15 * MIN - 1000));
    expect((await call('POST', '/v1/sessions', { payload: { email, password } })).statusCode).toBe(429);
    h.clock.set(new Date(start + 15 * MIN));
    expect((await call('POST', '/v1/sessions', { payload: { email, password } })).statusCode).toBe(201);
  });

  test('9 wrong then the right password works', async () => {
    const email = fresh('nine');
    await signUp(h, keys.secret, { email, password });
    for (let i = 0; i < 9; i++) expect((await call('POST', '/v1/sessions', { payload: { email, password: 'wrong one' } })).statusCode).toBe(401);
    expect((await call('POST', '/v1/sessions', { payload: { email, password } })).statusCode).toBe(201);
  });

  test('concurrent wrong attempts are counted exactly: of 16, 10 are 401 and 6 are 429', async () => {
    const email = fresh('race');
    await signUp(h, keys.secret, { email, password });
    const results = await Promise.all(Array.from({ length: 16 }, () => call('POST', '/v1/sessions', { payload: { email, password: 'wrong guess' } })));
    const counts = results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.statusCode]: (acc[r.statusCode] ?? 0) + 1 }), {});
    expect(counts).toEqual({ 401: 10, 429: 6 });
  });

  test('an unknown address locks the same way (no hint whether it exists)', async () => {
    const email = fresh('ghost');
    for (let i = 0; i < 10; i++) expect((await call('POST', '/v1/sessions', { payload: { email, password: 'wrong guess' } })).statusCode).toBe(401);
    expect((await call('POST', '/v1/sessions', { payload: { email, password: 'wrong guess' } })).statusCode).toBe(429);
  });
});

describe('sessions: X-User-Session', () => {
  test('GET /v1/me: 200 with the session; 401 without, with an unknown or malformed one; 403 with a publishable key', async () => {
    const email = fresh();
    const { token } = await signUp(h, keys.secret, { email, password: 'password1' });
    const me = await call('GET', '/v1/me', { session: token });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(email);
    expect((await call('GET', '/v1/me')).json()).toMatchObject({ status: 401, code: 'session_required' });
    expect((await call('GET', '/v1/me', { session: `sess_${'A'.repeat(43)}` })).json()).toMatchObject({ status: 401, code: 'invalid_session' });
    expect((await call('GET', '/v1/me', { session: 'garbage' })).json()).toMatchObject({ status: 401, code: 'invalid_session' });
    expect((await call('GET', '/v1/me', { key: keys.publishable, session: token })).json()).toMatchObject({ status: 403, code: 'publishable_key_not_allowed' });
  });

  test("a session of marketplace A is unknown with marketplace B's key", async () => {
    const { token } = await signUp(h, keys.secret, { email: fresh() });
    expect((await call('GET', '/v1/me', { key: other.secret, session: token })).statusCode).toBe(401);
  });

  test('DELETE /v1/sessions/current ends only that session', async () => {
    const email = fresh();
    const { token } = await signUp(h, keys.secret, { email, password: 'password1' });
    const second = (await call('POST', '/v1/sessions', { payload: { email, password: 'password1' } })).json().session.token;
    const out = await call('DELETE', '/v1/sessions/current', { session: token });
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');
    expect((await call('GET', '/v1/me', { session: token })).statusCode).toBe(401);
    expect((await call('DELETE', '/v1/sessions/current', { session: token })).statusCode).toBe(401);
    expect((await call('GET', '/v1/me', { session: second })).statusCode).toBe(200);
  });

  test('sliding expiry: 30 days after last use (29 days idle is fine, 30 is not)', async () => {
    const { token } = await signUp(h, keys.secret, { email: fresh() });
    const t0 = h.clock.now().getTime();
    h.clock.set(new Date(t0 + 29 * DAY));
    expect((await call('GET', '/v1/me', { session: token })).statusCode).toBe(200);
    h.clock.set(new Date(t0 + 58 * DAY));
    expect((await call('GET', '/v1/me', { session: token })).statusCode).toBe(200);
    h.clock.set(new Date(t0 + 88 * DAY));
    expect((await call('GET', '/v1/me', { session: token })).statusCode).toBe(401);
    h.clock.set(new Date(t0));
  });

  test('absolute expiry: 90 days after sign-in however often it is used', async () => {
    const { token } = await signUp(h, keys.secret, { email: fresh() });
    const t0 = h.clock.now().getTime();
    for (let day = 20; day < 90; day += 20) {
      h.clock.set(new Date(t0 + day * DAY));
      expect((await call('GET', '/v1/me', { session: token })).statusCode, `day ${day}`).toBe(200);
    }
    h.clock.set(new Date(t0 + 90 * DAY - 1000));
    expect((await call('GET', '/v1/me', { session: token })).statusCode).toBe(200);
    h.clock.set(new Date(t0 + 90 * DAY));
    expect((await call('GET', '/v1/me', { session: token })).statusCode).toBe(401);
    h.clock.set(new Date(t0));
  });

  test('the same session over /trpc (the reference storefront)', async () => {
    const { token } = await signUp(h, keys.secret, { email: fresh() });
    const res = await h.app.inject({ method: 'GET', url: '/trpc/me.get?input=%7B%7D', headers: { authorization: `Bearer ${keys.secret}`, 'x-user-session': token } });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data.has_password).toBe(false);
  });
});

describe('PATCH /v1/me', () => {
  test('only sent fields change; locale is a marketplace language or empty', async () => {
    const { token } = await signUp(h, keys.secret, { email: fresh(), first_name: 'Ann', last_name: 'Berg', locale: 'sv' });
    const r = await call('PATCH', '/v1/me', { session: token, payload: { last_name: 'Lind', bio: 'Collector' } });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ first_name: 'Ann', last_name: 'Lind', bio: 'Collector', locale: 'sv' });
    expect((await call('PATCH', '/v1/me', { session: token, payload: { locale: '' } })).json().locale).toBe('');
    expect((await call('PATCH', '/v1/me', { session: token, payload: { locale: 'en' } })).json().locale).toBe('en');
    const bad = await call('PATCH', '/v1/me', { session: token, payload: { locale: 'de', display_name: 'x'.repeat(101), email: 'new@example.com' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.display_name', 'body.email', 'body.locale']);
    expect((await call('GET', '/v1/me', { session: token })).json()).toMatchObject({ last_name: 'Lind', locale: 'en', display_name: '' });
  });
});

describe('sign-in links (POST /v1/sessions/email-link, /from-link)', () => {
  test('202 with identical answers for known and unknown addresses; only a known one gets mail', async () => {
    const email = fresh();
    await signUp(h, keys.secret, { email });
    const known = await call('POST', '/v1/sessions/email-link', { payload: { email: email.toUpperCase() } });
    const unknown = await call('POST', '/v1/sessions/email-link', { payload: { email: fresh('nobody') } });
    for (const r of [known, unknown]) {
      expect(r.statusCode).toBe(202);
      expect(r.body).toBe('');
      expect(r.headers['content-type']).toBeUndefined();
    }
    const strip = (hd: Record<string, unknown>) => Object.keys(hd).filter((k) => !['request-id', 'date'].includes(k)).sort();
    expect(strip(known.headers)).toEqual(strip(unknown.headers));
    const mails = await emailsTo(h, keys.secret, email);
    expect(mails[0]).toMatchObject({ template: 'sign_in_link', subject: 'Your sign-in link' });
    expect(mails[0]!.links[0]).toMatch(/^https:\/\/shop\.example\/en\/auth\/sign-in\?token=[A-Za-z0-9_-]{43}$/);
  });

  test('the link signs in once, confirms the address, and expires after exactly 15 minutes', async () => {
    const email = fresh();
    await signUp(h, keys.secret, { email });
    await call('POST', '/v1/sessions/email-link', { payload: { email } });
    const token = tokenOf((await emailsTo(h, keys.secret, email))[0]!.links[0]);
    const t0 = h.clock.now().getTime();
    h.clock.set(new Date(t0 + 15 * MIN - 1));
    const ok = await call('POST', '/v1/sessions/from-link', { payload: { token } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().user.email_verified).toBe(true);
    expect((await call('GET', '/v1/me', { session: ok.json().session.token })).statusCode).toBe(200);
    const reused = await call('POST', '/v1/sessions/from-link', { payload: { token } });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ code: 'link_used', errors: [{ location: 'body.token', value: null }] });

    await call('POST', '/v1/sessions/email-link', { payload: { email } });
    const late = tokenOf((await emailsTo(h, keys.secret, email))[0]!.links[0]);
    h.clock.advance(15 * MIN);
    const expired = await call('POST', '/v1/sessions/from-link', { payload: { token: late } });
    expect(expired.statusCode).toBe(422);
    expect(expired.json().code).toBe('link_expired');
    expect(expired.body).not.toContain(late);
    h.clock.set(new Date(t0));
  });

  test('unknown token → 422 link_invalid; a confirmation token is not a sign-in token', async () => {
    const email = fresh();
    await signUp(h, keys.secret, { email });
    const verifyToken = tokenOf((await emailsTo(h, keys.secret, email))[0]!.links[0]);
    expect((await call('POST', '/v1/sessions/from-link', { payload: { token: 'x'.repeat(43) } })).json().code).toBe('link_invalid');
    expect((await call('POST', '/v1/sessions/from-link', { payload: { token: verifyToken } })).json().code).toBe('link_invalid');
    expect((await call('POST', '/v1/sessions/from-link', { payload: { token: 'x'.repeat(201) } })).statusCode).toBe(422);
  });

  test("a link is only good with its own marketplace's key", async () => {
    const email = fresh();
    await signUp(h, keys.secret, { email });
    await call('POST', '/v1/sessions/email-link', { payload: { email } });
    const token = tokenOf((await emailsTo(h, keys.secret, email))[0]!.links[0]);
    expect((await call('POST', '/v1/sessions/from-link', { key: other.secret, payload: { token } })).json().code).toBe('link_invalid');
    expect((await call('POST', '/v1/sessions/from-link', { payload: { token } })).statusCode).toBe(201);
  });

  test('concurrent use of one link: exactly one session', async () => {
    const email = fresh();
    await signUp(h, keys.secret, { email });
    await call('POST', '/v1/sessions/email-link', { payload: { email } });
    const token = tokenOf((await emailsTo(h, keys.secret, email))[0]!.links[0]);
    const results = await Promise.all(Array.from({ length: 5 }, () => call('POST', '/v1/sessions/from-link', { payload: { token } })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 422, 422, 422, 422]);
  });

  test('5 links an hour per address: the 6th is 429 with Retry-After, for unknown addresses too; a new hour opens', async () => {
    for (const exists of [true, false]) {
      const email = fresh('limit');
      if (exists) await signUp(h, keys.secret, { email });
      const t0 = h.clock.now().getTime();
      for (let i = 1; i <= 5; i++) {
        expect((await call('POST', '/v1/sessions/email-link', { payload: { email } })).statusCode, `link ${i}`).toBe(202);
        h.clock.advance(MIN);
      }
      const sixth = await call('POST', '/v1/sessions/email-link', { payload: { email: email.toUpperCase() } });
      expect(sixth.statusCode).toBe(429);
      expect(Number(sixth.headers['retry-after'])).toBe(55 * 60);
      if (exists) expect((await emailsTo(h, keys.secret, email)).filter((m) => m.template === 'sign_in_link')).toHaveLength(5);
      // other kinds of link have their own count
      expect((await call('POST', '/v1/password-resets', { payload: { email } })).statusCode).toBe(202);
      h.clock.set(new Date(t0 + HOUR));
      expect((await call('POST', '/v1/sessions/email-link', { payload: { email } })).statusCode).toBe(202);
      h.clock.set(new Date(t0));
    }
  });
});

describe('email confirmation', () => {
  test('POST /v1/email-verifications confirms; again within 24 hours is harmless; at 24 hours the link has expired', async () => {
    const email = fresh();
    const { token: session } = await signUp(h, keys.secret, { email });
    const token = tokenOf((await emailsTo(h, keys.secret, email))[0]!.links[0]);
    const t0 = h.clock.now().getTime();
    const first = await call('POST', '/v1/email-verifications', { payload: { token } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ email, email_verified: true });
    h.clock.set(new Date(t0 + 24 * HOUR - 1));
    expect((await call('POST', '/v1/email-verifications', { payload: { token } })).statusCode).toBe(200);
    h.clock.set(new Date(t0 + 24 * HOUR));
    expect((await call('POST', '/v1/email-verifications', { payload: { token } })).json()).toMatchObject({ status: 422, code: 'link_expired' });
    h.clock.set(new Date(t0));
    expect((await call('GET', '/v1/me', { session })).json().email_verified).toBe(true);
    expect((await call('POST', '/v1/email-verifications', { payload: { token: 'nope' } })).json()).toMatchObject({ status: 422, code: 'link_invalid' });
  });

  test('POST /v1/me/verification-email: 202 and a new link; nothing when already confirmed; sign-up counts toward 5 an hour', async () => {
    const email = fresh();
    const { token: session } = await signUp(h, keys.secret, { email });
    for (let i = 2; i <= 5; i++) expect((await call('POST', '/v1/me/verification-email', { session })).statusCode, `email ${i}`).toBe(202);
    const sixth = await call('POST', '/v1/me/verification-email', { session });
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBe(3600);
    const mails = await emailsTo(h, keys.secret, email);
    expect(mails).toHaveLength(5);
    await call('POST', '/v1/email-verifications', { payload: { token: tokenOf(mails[0]!.links[0]) } });
    h.clock.advance(HOUR);
    expect((await call('POST', '/v1/me/verification-email', { session })).statusCode).toBe(202);
    expect(await emailsTo(h, keys.secret, email)).toHaveLength(5);
    h.clock.advance(-HOUR);
  });
});

describe('password reset', () => {
  test('202 always; the link (1 hour, once) sets the password, signs out everywhere and lifts a lock', async () => {
    const email = fresh();
    const { token: s1 } = await signUp(h, keys.secret, { email, password: 'old password' });
    const s2 = (await call('POST', '/v1/sessions', { payload: { email, password: 'old password' } })).json().session.token;
    for (let i = 0; i < 10; i++) await call('POST', '/v1/sessions', { payload: { email, password: 'wrong guess' } });
    expect((await call('POST', '/v1/sessions', { payload: { email, password: 'old password' } })).statusCode).toBe(429);

    const unknown = await call('POST', '/v1/password-resets', { payload: { email: fresh('nobody') } });
    const known = await call('POST', '/v1/password-resets', { payload: { email } });
    expect([unknown.statusCode, known.statusCode]).toEqual([202, 202]);
    expect(unknown.body).toBe(known.body);
    const [mail] = await emailsTo(h, keys.secret, email);
    expect(mail).toMatchObject({ template: 'password_reset', subject: 'Reset your password' });
    expect(mail!.links[0]).toMatch(/^https:\/\/shop\.example\/en\/auth\/reset-password\?token=/);
    const token = tokenOf(mail!.links[0]);

    const short = await call('POST', '/v1/password-resets/confirm', { payload: { token, password: 'short' } });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toEqual([{ location: 'body.password', message: 'Must be at least 8 characters.', value: null }]);

    h.clock.advance(HOUR - 1);
    const done = await call('POST', '/v1/password-resets/confirm', { payload: { token, password: 'new password' } });
    expect(done.statusCode).toBe(204);
    h.clock.advance(-(HOUR - 1));
    expect((await call('GET', '/v1/me', { session: s1 })).statusCode).toBe(401);
    expect((await call('GET', '/v1/me', { session: s2 })).statusCode).toBe(401);
    expect((await call('POST', '/v1/sessions', { payload: { email, password: 'old password' } })).statusCode).toBe(401);
    const signedIn = await call('POST', '/v1/sessions', { payload: { email, password: 'new password' } });
    expect(signedIn.statusCode).toBe(201);
    expect(signedIn.json().user.email_verified).toBe(true);
    expect((await call('POST', '/v1/password-resets/confirm', { payload: { token, password: 'another one' } })).json().code).toBe('link_used');
  });

  test('a reset link expires after exactly 1 hour; a link-only account can choose a password', async () => {
    const email = fresh();
    await signUp(h, keys.secret, { email });
    await call('POST', '/v1/password-resets', { payload: { email } });
    const token = tokenOf((await emailsTo(h, keys.secret, email))[0]!.links[0]);
    h.clock.advance(HOUR);
    expect((await call('POST', '/v1/password-resets/confirm', { payload: { token, password: 'new password' } })).json().code).toBe('link_expired');
    h.clock.advance(-HOUR);
    await call('POST', '/v1/password-resets', { payload: { email } });
    const fresh2 = tokenOf((await emailsTo(h, keys.secret, email))[0]!.links[0]);
    expect((await call('POST', '/v1/password-resets/confirm', { payload: { token: fresh2, password: 'new password' } })).statusCode).toBe(204);
    const me = await call('POST', '/v1/sessions', { payload: { email, password: 'new password' } });
    expect(me.json().user.has_password).toBe(true);
  });
});

describe('operator console: team-created users, block and unblock', () => {
  test('users create: welcome email with a sign-in link valid 7 days, in the user language', async () => {
    const email = fresh('team');
    const { user } = await h.console.users.create({ marketplace: 'shop', email, first_name: 'Tove', locale: 'sv' });
    expect(user).toMatchObject({ email, has_password: false, locale: 'sv' });
    const [mail] = await emailsTo(h, keys.secret, email);
    expect(mail).toMatchObject({ template: 'welcome', locale: 'sv', subject: 'Välkommen! Ditt konto är klart' });
    expect(mail!.links[0]).toMatch(/^https:\/\/shop\.example\/sv\/auth\/sign-in\?token=/);
    const token = tokenOf(mail!.links[0]);
    h.clock.advance(7 * DAY - 1000);
    expect((await call('POST', '/v1/sessions/from-link', { payload: { token } })).statusCode).toBe(201);
    h.clock.advance(-(7 * DAY - 1000));

    const late = fresh('team');
    await h.console.users.create({ marketplace: 'shop', email: late });
    const lateToken = tokenOf((await emailsTo(h, keys.secret, late))[0]!.links[0]);
    h.clock.advance(7 * DAY);
    expect((await call('POST', '/v1/sessions/from-link', { payload: { token: lateToken } })).json().code).toBe('link_expired');
    h.clock.advance(-7 * DAY);
    await expect(h.console.users.create({ marketplace: 'shop', email: late.toUpperCase() })).rejects.toMatchObject({ cause: { code: 'email_in_use' } });
  });

  test('a blocked user: 403 on /me (sessions ended), password sign-in and link sign-in (link not spent); no link mailed; unblock restores', async () => {
    const email = fresh('blocked');
    const { token: session } = await signUp(h, keys.secret, { email, password: 'password1' });
    await call('POST', '/v1/sessions/email-link', { payload: { email } });
    const link = tokenOf((await emailsTo(h, keys.secret, email))[0]!.links[0]);
    await h.console.users.block({ marketplace: 'shop', email: email.toUpperCase() });
    expect((await call('GET', '/v1/me', { session })).statusCode).toBe(401); // blocking ended it
    const pw = await call('POST', '/v1/sessions', { payload: { email, password: 'password1' } });
    expect(pw.json()).toMatchObject({ status: 403, code: 'user_blocked' });
    expect((await call('POST', '/v1/sessions', { payload: { email, password: 'wrong password' } })).statusCode).toBe(401);
    expect((await call('POST', '/v1/sessions/from-link', { payload: { token: link } })).json()).toMatchObject({ status: 403, code: 'user_blocked' });
    const before = (await emailsTo(h, keys.secret, email)).length;
    expect((await call('POST', '/v1/sessions/email-link', { payload: { email } })).statusCode).toBe(202);
    expect(await emailsTo(h, keys.secret, email)).toHaveLength(before);

    await h.console.users.unblock({ marketplace: 'shop', email });
    expect((await call('POST', '/v1/sessions/from-link', { payload: { token: link } })).statusCode).toBe(201);
  });

  test('a session that outlives a block (blocked by another path) answers 403', async () => {
    const email = fresh('blocked');
    const { token: session } = await signUp(h, keys.secret, { email });
    await h.orm.em.getConnection().execute(`update users set blocked_at = now() where email = ?`, [email]);
    expect((await call('GET', '/v1/me', { session })).json()).toMatchObject({ status: 403, code: 'user_blocked' });
  });
});

describe('input problems and retries on the link endpoints', () => {
  test('email-link and password-resets refuse a malformed address with 422 at body.email', async () => {
    for (const url of ['/v1/sessions/email-link', '/v1/password-resets']) {
      const r = await call('POST', url, { payload: { email: 'nope' } });
      expect(r.json(), url).toMatchObject({ status: 422, errors: [{ location: 'body.email', value: 'nope' }] });
      expect((await call('POST', url, { payload: { email: `${'a'.repeat(250)}@x.se` } })).statusCode, url).toBe(422);
    }
  });

  test('password resets: 5 an hour per address, the 6th is 429 with Retry-After', async () => {
    const email = fresh('resets');
    await signUp(h, keys.secret, { email });
    for (let i = 0; i < 5; i++) expect((await call('POST', '/v1/password-resets', { payload: { email } })).statusCode).toBe(202);
    const sixth = await call('POST', '/v1/password-resets', { payload: { email } });
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBe(3600);
    expect((await emailsTo(h, keys.secret, email)).filter((m) => m.template === 'password_reset')).toHaveLength(5);
  });

  test('a sign-up retried with the same Idempotency-Key replays the first answer (same user, same session)', async () => {
    const email = fresh();
    const key = crypto.randomUUID();
    const send = () => h.request({ method: 'POST', url: '/v1/users', key: keys.secret, headers: { 'idempotency-key': key }, payload: { email, password: 'password1' } });
    const first = await send();
    const again = await send();
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await emailsTo(h, keys.secret, email)).toHaveLength(1);
  });
});

describe('test helper GET /v1/test-helpers/emails', () => {
  test('newest first, filtered by address, limit 1..100; secret key only', async () => {
    const email = fresh();
    await signUp(h, keys.secret, { email });
    await call('POST', '/v1/sessions/email-link', { payload: { email } });
    h.clock.advance(1000);
    await call('POST', '/v1/password-resets', { payload: { email } });
    const mails = await emailsTo(h, keys.secret, email.toUpperCase());
    expect(mails.map((m) => m.template)).toEqual(['password_reset', 'sign_in_link', 'email_confirmation']);
    expect((await call('GET', `/v1/test-helpers/emails?to=${email}&limit=1`)).json().items).toHaveLength(1);
    expect((await call('GET', '/v1/test-helpers/emails?limit=0')).statusCode).toBe(422);
    expect((await call('GET', '/v1/test-helpers/emails?limit=101')).statusCode).toBe(422);
    expect((await call('GET', '/v1/test-helpers/emails', { key: keys.publishable })).statusCode).toBe(403);
    expect((await call('GET', `/v1/test-helpers/emails?to=${email}`, { key: other.secret })).json().items).toEqual([]);
  });

  test('the emails were delivered by the local mailbox adapter as .eml files', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const files = readdirSync(h.mailDir).filter((f) => f.endsWith('.eml'));
    expect(files.length).toBeGreaterThan(10);
    const eml = readFileSync(`${h.mailDir}/${files[0]}`, 'utf8');
    expect(eml).toMatch(/^Message-ID: <[0-9a-f-]+@local-mailbox>\r\n/);
    expect(eml).toContain('From: Shop shop <no-reply@shop.example>');
  });
});

test('no response carried a password hash, and link tokens only ever travelled by email', async () => {
  const all = bodies.join('\n');
  expect(all).not.toContain('$argon2id$');
  const [row] = await h.orm.em.getConnection().execute<{ tokens: number }[]>(`select count(*)::int as tokens from email_tokens`);
  const tokens = row!.tokens;
  expect(tokens).toBeGreaterThan(20);
  // links appear in test-helper bodies (that is their job); nowhere else
  const outsideHelper = bodies.filter((b) => !b.startsWith('{"items":'));
  expect(outsideHelper.join('\n')).not.toMatch(/token=[A-Za-z0-9_-]{43}/);
  expect(outsideHelper.filter((b) => b.includes('"token":"sess_')).every((b) => b.startsWith('{"session":'))).toBe(true);
});

describe('live deployment', () => {
  let live: Harness;
  beforeAll(async () => {
    live = await startHarness({ mode: 'live' });
  });
  afterAll(() => live.close());

  test('the test helper is 404; email bodies are dropped once sent', async () => {
    const k = await makeMarketplace(live, 'live-shop');
    const email = 'live@example.com';
    expect((await live.request({ method: 'POST', url: '/v1/users', key: k.secret, payload: { email } })).statusCode).toBe(201);
    const res = await live.request({ method: 'GET', url: '/v1/test-helpers/emails', key: k.secret });
    expect(res.statusCode).toBe(404);
    const timers = await live.request({ method: 'POST', url: '/v1/test-helpers/timers/advance', key: k.secret, payload: { until: '2030-01-01T00:00:00Z' } });
    expect(timers.statusCode).toBe(404);
    await live.runJobs();
    const [row] = await live.orm.em.getConnection().execute<{ status: string; text: string | null; html: string | null }[]>(`select status, text, html from emails`);
    expect(row).toEqual({ status: 'sent', text: null, html: null });
  });
});
