import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emailsTo, makeMarketplace, signUp, startHarness, tokenOf, type Harness } from './harness.js';
import { accountsSuite, expectNoSecretsLeaked, HOUR, MIN } from './accounts.suite.js';

/** Accounts by email: sign-in links, confirmation, password reset, the emails test helper (team-made and blocked users: account-blocking.e2e.test.ts). */
const suite = accountsSuite();
const { call, fresh } = suite;
let h: Harness;
let keys: { secret: string; publishable: string };
let other: { secret: string; publishable: string };
beforeAll(() => {
  ({ h, keys, other } = suite);
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
    // no input: no body at all (as documented) or an empty JSON object, alike
    for (let i = 2; i <= 5; i++) expect((await call('POST', '/v1/me/verification-email', i % 2 ? { session } : { session, payload: {} })).statusCode, `email ${i}`).toBe(202);
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

test('no response carried a password hash, and link tokens only ever travelled by email', () => expectNoSecretsLeaked(suite));

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
