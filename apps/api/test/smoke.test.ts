import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeMarketplace, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

test('marketplace', async () => {
  const { secret } = await makeMarketplace(h);
  const res = await h.request({ method: 'GET', url: '/v1/marketplace', key: secret });
  console.log(res.statusCode, res.headers, res.body);
  expect(res.statusCode).toBe(200);
});
