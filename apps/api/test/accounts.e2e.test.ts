import { beforeAll, describe, expect, test } from 'vitest';
import { emailsTo, signUp, type Harness } from './harness.js';
import { accountsSuite, expectNoSecretsLeaked, DAY, MIN } from './accounts.suite.js';

/** Accounts: sign-up, password sign-in and its lock, sessions, the profile. */
const suite = accountsSuite();
const { call, fresh } = suite;
let h: Harness;
let keys: { secret: string; publishable: string };
let other: { secret: string; publishable: string };
beforeAll(() => {
  ({ h, keys, other } = suite);
});

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

test('no response carried a password hash, and link tokens only ever travelled by email', () => expectNoSecretsLeaked(suite));
