import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeMarketplace, signUp, startHarness, type Harness } from './harness.js';

/**
 * Idempotency-Key on the real endpoints: a replay gives exactly what the first client got (status,
 * bytes, content type), never outlives the user session it was made in, and the stored records hold
 * no secret (session tokens, passwords) and no personal data in the clear.
 */
let h: Harness;
let key: string;

beforeAll(async () => {
  h = await startHarness();
  ({ secret: key } = await makeMarketplace(h, 'replays'));
});
afterAll(() => h.close());

function call(method: 'POST' | 'PATCH' | 'DELETE', url: string, opts: { idem: string; payload?: unknown; session?: string }) {
  return h.request({ method, url, key, session: opts.session, headers: { 'idempotency-key': opts.idem }, ...(opts.payload !== undefined ? { payload: opts.payload as object } : {}) });
}

/** Everything the idempotency table holds, as text. */
async function storedText(): Promise<string> {
  const rows = await h.orm.em.getConnection().execute(`select scope, key, fingerprint, response_headers::text as headers, encode(response_body, 'escape') as body from idempotency_keys`);
  return JSON.stringify(rows);
}

describe('4xx answers are stored as the client got them', () => {
  test.each([
    ['409 email_in_use', async () => (await signUp(h, key, { email: 'taken@example.com' }), ['POST', '/v1/users', { email: 'taken@example.com' }] as const), 409, 'email_in_use'],
    ['401 invalid_credentials', async () => ['POST', '/v1/sessions', { email: 'nobody@example.com', password: 'whatever-pass' }] as const, 401, 'invalid_credentials'],
    ['404 not_found', async () => ['POST', `/v1/me/listings/${randomUUID()}/close`, undefined] as const, 404, 'not_found'],
    ['422 validation_failed', async () => ['POST', '/v1/users', { email: 'not an address' }] as const, 422, 'validation_failed'],
  ])('%s: replayed with the same status, bytes and content type', async (_name, setup, status, code) => {
    const [method, url, payload] = await setup();
    const session = url.startsWith('/v1/me') ? (await signUp(h, key, { email: `${randomUUID()}@example.com` })).token : undefined;
    const idem = randomUUID();
    const first = await call(method, url, { idem, payload, session });
    expect(first.statusCode, first.body).toBe(status);
    expect(first.json()).toMatchObject({ code });
    const again = await call(method, url, { idem, payload, session });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.statusCode).toBe(status);
    expect(again.headers['content-type']).toBe('application/problem+json');
    expect(again.body).toBe(first.body);
  });

  test('429 lockout is stored and replayed', async () => {
    await signUp(h, key, { email: 'locked@example.com', password: 'right-password' });
    for (let i = 0; i < 10; i++) await h.request({ method: 'POST', url: '/v1/sessions', key, payload: { email: 'locked@example.com', password: `wrong-${i}-password` } });
    const idem = randomUUID();
    const payload = { email: 'locked@example.com', password: 'right-password' };
    const first = await call('POST', '/v1/sessions', { idem, payload });
    expect(first.statusCode).toBe(429);
    const again = await call('POST', '/v1/sessions', { idem, payload });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBe(first.headers['retry-after']);
    expect(again.body).toBe(first.body);
  });
});

describe('scope: the API key and the user (spec), not one session', () => {
  test('a retry from another session of the same user replays the first answer instead of creating a second listing', async () => {
    const email = `${randomUUID()}@example.com`;
    const { token: first } = await signUp(h, key, { email, password: 'right-password' });
    const second = (await h.request({ method: 'POST', url: '/v1/sessions', key, payload: { email, password: 'right-password' } })).json().session.token as string;
    const idem = randomUUID();
    const made = await call('POST', '/v1/me/listings', { idem, payload: { title: 'One lamp' }, session: first });
    expect(made.statusCode, made.body).toBe(201);
    const retried = await call('POST', '/v1/me/listings', { idem, payload: { title: 'One lamp' }, session: second });
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.body).toBe(made.body);
    // and after signing out and in again: still the same listing
    await h.request({ method: 'DELETE', url: '/v1/sessions/current', key, session: first });
    const third = (await h.request({ method: 'POST', url: '/v1/sessions', key, payload: { email, password: 'right-password' } })).json().session.token as string;
    const later = await call('POST', '/v1/me/listings', { idem, payload: { title: 'One lamp' }, session: third });
    expect(later.headers['idempotent-replayed']).toBe('true');
    expect(later.json().id).toBe(made.json().id);
    const mine = await h.request({ method: 'GET', url: '/v1/me/listings', key, session: third });
    expect(mine.json().items).toHaveLength(1);
  });

  test('another user with the same Idempotency-Key gets their own answer', async () => {
    const idem = randomUUID();
    const a = await call('POST', '/v1/me/listings', { idem, payload: { title: 'Shared key' }, session: (await signUp(h, key, { email: `${randomUUID()}@example.com` })).token });
    const b = await call('POST', '/v1/me/listings', { idem, payload: { title: 'Shared key' }, session: (await signUp(h, key, { email: `${randomUUID()}@example.com` })).token });
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json().id).not.toBe(a.json().id);
  });
});

describe('secrets and sessions', () => {
  test('no session token, password or personal data is stored in the clear', async () => {
    const idem = randomUUID();
    const signedUp = await call('POST', '/v1/users', { idem, payload: { email: 'secret-keeper@example.com', password: 'correct-horse-battery', first_name: 'Greta' } });
    expect(signedUp.statusCode).toBe(201);
    const signIn = await call('POST', '/v1/sessions', { idem: randomUUID(), payload: { email: 'secret-keeper@example.com', password: 'correct-horse-battery' } });
    expect(signIn.statusCode).toBe(201);
    const me = await call('PATCH', '/v1/me', { idem: randomUUID(), session: signIn.json().session.token, payload: { phone: '+46 70 123 45 67' } });
    expect(me.statusCode).toBe(200);
    const replay = await call('POST', '/v1/users', { idem, payload: { email: 'secret-keeper@example.com', password: 'correct-horse-battery', first_name: 'Greta' } });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(signedUp.body);

    const stored = await storedText();
    expect(stored).toContain(idem); // the records are there…
    for (const secret of [signedUp.json().session.token, signIn.json().session.token, 'correct-horse-battery', 'secret-keeper@example.com', 'Greta', '+46 70 123 45 67']) {
      expect(stored).not.toContain(secret); // …but hold none of this
    }
  });

  test('PATCH /v1/me replayed after sign-out → 401, as a fresh request', async () => {
    const { token } = await signUp(h, key, { email: 'patcher@example.com' });
    const idem = randomUUID();
    const first = await call('PATCH', '/v1/me', { idem, session: token, payload: { first_name: 'Pia' } });
    expect(first.statusCode).toBe(200);
    expect((await call('PATCH', '/v1/me', { idem, session: token, payload: { first_name: 'Pia' } })).headers['idempotent-replayed']).toBe('true');
    expect((await h.request({ method: 'DELETE', url: '/v1/sessions/current', key, session: token })).statusCode).toBe(204);
    const after = await call('PATCH', '/v1/me', { idem, session: token, payload: { first_name: 'Pia' } });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'invalid_session' });
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(after.body).not.toContain('patcher@example.com');
  });

  test('POST /v1/sessions replays its session only while that session lasts; afterwards it runs fresh (429 while locked out)', async () => {
    await signUp(h, key, { email: 'twice@example.com', password: 'right-password' });
    const idem = randomUUID();
    const payload = { email: 'twice@example.com', password: 'right-password' };
    const first = await call('POST', '/v1/sessions', { idem, payload });
    expect(first.statusCode).toBe(201);
    const token = first.json().session.token as string;
    const again = await call('POST', '/v1/sessions', { idem, payload });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().session.token).toBe(token);

    expect((await h.request({ method: 'DELETE', url: '/v1/sessions/current', key, session: token })).statusCode).toBe(204);
    for (let i = 0; i < 10; i++) await h.request({ method: 'POST', url: '/v1/sessions', key, payload: { email: 'twice@example.com', password: `wrong-${i}-password` } });
    const locked = await call('POST', '/v1/sessions', { idem, payload });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['idempotent-replayed']).toBeUndefined();
    expect(locked.body).not.toContain(token);
  });
});
