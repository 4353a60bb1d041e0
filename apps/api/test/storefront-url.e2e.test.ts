import { afterAll, beforeAll, expect, test } from 'vitest';
import { TRPCError } from '@trpc/server';
import { toProblem } from '@hm/contract/trpc';
import { emailsTo, makeMarketplace, startHarness, type Harness } from './harness.js';

/** Emailed links must be absolute: a marketplace without a storefront address sends none. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

test('a marketplace cannot be created without its storefront address', async () => {
  const input = { name: 'No shop', slug: 'no-shop', currencies: ['SEK'], locales: ['en'] };
  const err = await h.console.marketplace.create(input as never).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TRPCError);
  const problem = toProblem(err as TRPCError, undefined, input);
  expect(problem).toMatchObject({ status: 422, code: 'validation_failed' });
  expect(problem.errors).toEqual([{ location: 'body.storefront_url', message: 'Required.', value: null }]);
});

test('a marketplace made before the address was required queues no email with a relative link', async () => {
  const m = await makeMarketplace(h, 'legacy');
  await h.orm.em.getConnection().execute(`update marketplaces set storefront_url = null where slug = 'legacy'`);
  const refused = await h.request({ method: 'POST', url: '/v1/users', key: m.secret, payload: { email: 'ada@example.com', password: 'ada password' } });
  expect(refused.statusCode, refused.body).toBe(503);
  expect(refused.headers['content-type']).toBe('application/problem+json');
  expect(refused.json()).toMatchObject({ code: 'service_unavailable', detail: expect.stringContaining('storefront address is not set') });
  const emails = await h.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int as n from emails`);
  expect(emails).toEqual([{ n: 0 }]);

  await h.console.marketplace.update({ marketplace: 'legacy', settings: { storefront_url: 'https://legacy.example/' } });
  const created = await h.request({ method: 'POST', url: '/v1/users', key: m.secret, payload: { email: 'ada@example.com', password: 'ada password' } });
  expect(created.statusCode, created.body).toBe(201); // the refused sign-up left no account behind
  const [mail] = await emailsTo(h, m.secret, 'ada@example.com');
  expect(mail!.links[0]).toMatch(/^https:\/\/legacy\.example\/en\/auth\/verify-email\?token=/);
});
