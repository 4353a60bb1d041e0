import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeMarketplace, signUp, startHarness, type Harness } from './harness.js';

/**
 * A burst of wrong-password sign-ins (issue 24): 200 at once used to hold a pooled connection each
 * through argon2, so they and unrelated requests got 503 "database … unreachable" while Postgres was
 * fine. Passwords are now checked with no connection held and at most two at a time: every sign-in
 * is answered 401, and the other requests made meanwhile all succeed. (bench/signin-burst.ts
 * measures the latencies.)
 */
let h: Harness;
let secret: string;
let token: string;
beforeAll(async () => {
  h = await startHarness({ poolMax: 5 });
  secret = (await makeMarketplace(h, 'shop')).secret;
  token = (await signUp(h, secret, { email: 'reader@example.com', password: 'a good password' })).token;
});
afterAll(() => h.close());

test('200 concurrent wrong passwords: 200 × 401, no 503, and /v1/me answers 200 throughout', async () => {
  const signIns = Array.from({ length: 200 }, (_, i) => h.request({ method: 'POST', url: '/v1/sessions', key: secret, payload: { email: `guess${i}@example.com`, password: 'wrong password' } }));
  const others = Array.from({ length: 40 }, () => h.request({ method: 'GET', url: '/v1/me', key: secret, session: token }));
  const [burst, reads] = await Promise.all([Promise.all(signIns), Promise.all(others)]);
  const count = (rs: { statusCode: number }[]) => rs.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.statusCode]: (acc[r.statusCode] ?? 0) + 1 }), {});
  expect(count(burst)).toEqual({ 401: 200 });
  expect(count(reads)).toEqual({ 200: 40 });
}, 240_000); // 200 argon2 runs, two at a time
