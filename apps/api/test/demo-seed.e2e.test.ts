import { afterAll, beforeAll, expect, test } from 'vitest';
import { seedDemo } from '@hm/domain/demo';
import { jpeg, signUp, startHarness, uploadPhoto, type Harness } from './harness.js';

/**
 * The demo marketplace as a new user meets it: a seller lists a €450 lamp (euros are not the
 * default currency, SEK) and it must show in price sorts and price filters like in `newest`.
 */
let h: Harness;
let secret: string;
beforeAll(async () => {
  h = await startHarness();
  ({ secret } = (await seedDemo(h.orm, { mode: 'test', storefrontUrl: 'https://demo.example', today: '2026-11-22' })).keys);
});
afterAll(() => h.close());

const get = async (url: string) => {
  const res = await h.request({ method: 'GET', url, key: secret });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

test('a listing priced in euros is in sort=price_asc and in a euro price range', async () => {
  const { token } = await signUp(h, secret, { email: 'seller@example.com', password: 'seller password' });
  const category = (await get('/v1/categories')).items.find((c: { slug: string }) => c.slug === 'ceiling-lamps').id;
  const condition = (await get('/v1/catalog-terms?kind=condition')).items.find((t: { slug: string }) => t.slug === 'good').id;
  const created = await h.request({
    method: 'POST',
    url: '/v1/me/listings',
    key: secret,
    session: token,
    payload: { title: 'Brass ceiling lamp', description: 'PH 5, 1958.', category_id: category, terms: { condition }, price: { amount: 45000, currency: 'EUR' }, location: { country: 'SE' }, delivery: { pickup: true } },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  expect((await uploadPhoto(h, secret, token, id, await jpeg(800, 600))).statusCode).toBe(202);
  await h.runJobs(); // the photo's sizes
  const published = await h.request({ method: 'POST', url: `/v1/me/listings/${id}/publish`, key: secret, session: token, payload: {} });
  expect(published.json().status, published.body).toBe('published');

  expect((await get('/v1/listings?sort=newest')).items.map((l: { id: string }) => l.id)).toEqual([id]);
  expect((await get('/v1/listings?sort=price_asc')).items.map((l: { id: string }) => l.id)).toEqual([id]);
  expect((await get('/v1/listings?sort=price_desc')).items.map((l: { id: string }) => l.id)).toEqual([id]);
  const inRange = await get('/v1/listings?currency=EUR&min_price=40000&max_price=50000');
  expect(inRange.items.map((l: { id: string }) => l.id)).toEqual([id]);
  expect(inRange.items[0].display_price).toEqual({ amount: 45000, currency: 'EUR' });
});
