import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resendContacts } from '@hm/domain/newsletter';
import { startResendTestServer, type ResendTestServer } from '@hm/domain/testing';
import { makeMarketplace, startHarness, type Harness } from './harness.js';

/** POST /v1/newsletter/subscribers, the `add-newsletter-contact` job, and `newsletter export` in the console. */

type Keys = Awaited<ReturnType<typeof makeMarketplace>>;
const sign = (h: Harness, key: string, payload: unknown, headers: Record<string, string> = {}) => h.request({ method: 'POST', url: '/v1/newsletter/subscribers', key, payload: payload as object, headers });
const rows = async (h: Harness, sql: string, params: unknown[] = []) => (await h.orm.em.getConnection().execute(sql, params)) as Record<string, unknown>[];
const strip = (hd: Record<string, unknown>) => Object.keys(hd).filter((k) => !['request-id', 'date'].includes(k)).sort();

describe('with the local contact list', () => {
  let h: Harness;
  let shop: Keys;
  let other: Keys;
  beforeAll(async () => {
    h = await startHarness();
    shop = await makeMarketplace(h, 'shop');
    other = await makeMarketplace(h, 'other');
  });
  afterAll(() => h.close());

  test('202 for a new and a repeated address alike; the repeat changes nothing; exactly one contact is added', async () => {
    const first = await sign(h, shop.publishable, { email: 'Reader@Example.com', first_name: 'Åsa', locale: 'sv', source: 'footer' });
    const again = await sign(h, shop.secret, { email: 'reader@example.COM', first_name: 'Someone else', locale: 'en', source: 'home' });
    for (const r of [first, again]) {
      expect(r.statusCode).toBe(202);
      expect(r.body).toBe('');
    }
    expect(strip(again.headers)).toEqual(strip(first.headers));
    await h.runJobs();
    await sign(h, shop.secret, { email: 'reader@example.com' });
    await h.runJobs();

    const contacts = await rows(h, `select c.email, c.first_name from newsletter_contacts c join marketplaces m on m.id = c.marketplace_id where m.slug = 'shop'`);
    expect(contacts).toEqual([{ email: 'reader@example.com', first_name: 'Åsa' }]);
    const exported = await h.console.newsletter.export({ marketplace: 'shop' });
    expect(exported).toEqual({
      contact_list: { provider: 'local', audience_id: null },
      items: [
        {
          email: 'Reader@Example.com',
          first_name: 'Åsa',
          locale: 'sv',
          source: 'footer',
          subscribed_at: h.clock.now().toISOString(),
          contact: { provider: 'local', id: expect.any(String), added_at: h.clock.now().toISOString() },
        },
      ],
    });
  });

  test("marketplaces keep their own lists: the same address signs up new in another, and neither export shows the other's", async () => {
    await sign(h, shop.secret, { email: 'both@example.com' });
    const r = await sign(h, other.publishable, { email: 'both@example.com', source: 'popup' });
    expect(r.statusCode).toBe(202);
    await h.runJobs();
    const mine = await h.console.newsletter.export({ marketplace: 'other' });
    expect(mine.items.map((i) => [i.email, i.source, i.contact?.provider])).toEqual([['both@example.com', 'popup', 'local']]);
    expect((await h.console.newsletter.export({ marketplace: 'shop' })).items.map((i) => i.email)).toContain('both@example.com');
  });

  test('concurrent sign-ups of one address: all 202, one subscriber, one job', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => sign(h, shop.secret, { email: 'race@example.com' })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(202));
    const jobs = await rows(h, `select count(*)::int as n from graphile_worker.jobs where task_identifier = 'add-newsletter-contact'`);
    expect(jobs).toEqual([{ n: 1 }]);
    await h.runJobs();
    expect(await rows(h, `select count(*)::int as n from newsletter_contacts where email = 'race@example.com'`)).toEqual([{ n: 1 }]);
  });

  test('bad addresses are 422 at body.email; nothing is recorded', async () => {
    const bad = ['not-an-address', 'two@@example.com', 'no-domain@', `${'a'.repeat(243)}@example.com`, '', 42];
    for (const email of bad) {
      const r = await sign(h, shop.secret, { email });
      expect(r.statusCode, String(email)).toBe(422);
      expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(r.json().errors).toEqual([expect.objectContaining({ location: 'body.email' })]);
    }
    const missing = await sign(h, shop.secret, { first_name: 'x' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual([expect.objectContaining({ location: 'body.email' })]);
    expect(await rows(h, `select count(*)::int as n from newsletter_subscribers where email like '%no-domain%' or email = 'not-an-address'`)).toEqual([{ n: 0 }]);
  });

  test('limits ± 1: email 254, first_name 100, locale 35, source 60; every problem listed at once', async () => {
    const longest = `${'a'.repeat(64)}.${'b'.repeat(63)}@${'c'.repeat(60)}.${'d'.repeat(60)}.com`;
    expect(longest).toHaveLength(254);
    const ok = await sign(h, shop.secret, { email: longest, first_name: 'f'.repeat(100), locale: 'l'.repeat(35), source: 's'.repeat(60) });
    expect(ok.statusCode).toBe(202);
    const over = await sign(h, shop.secret, { email: `a${longest}`, first_name: 'f'.repeat(101), locale: 'l'.repeat(36), source: 's'.repeat(61) });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.email', 'body.first_name', 'body.locale', 'body.source']);
    const unknown = await sign(h, shop.secret, { email: 'x@example.com', consent: true });
    expect(unknown.statusCode).toBe(422);
  });

  test('needs an API key: none → 401, another deployment mode’s key → 401', async () => {
    expect((await h.request({ method: 'POST', url: '/v1/newsletter/subscribers', payload: { email: 'k@example.com' } })).statusCode).toBe(401);
    expect((await sign(h, shop.secret.replace('sk_test_', 'sk_live_'), { email: 'k@example.com' })).statusCode).toBe(401);
  });

  test('an Idempotency-Key retry replays the 202', async () => {
    const key = crypto.randomUUID();
    const a = await sign(h, shop.secret, { email: 'idem@example.com' }, { 'idempotency-key': key });
    const b = await sign(h, shop.secret, { email: 'idem@example.com' }, { 'idempotency-key': key });
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
    expect(b.headers['idempotent-replayed']).toBe('true');
  });
});

describe('with Resend contacts (the real `resend` package against a local Resend API)', () => {
  let h: Harness;
  let resend: ResendTestServer;
  let shop: Keys;
  beforeAll(async () => {
    resend = await startResendTestServer();
    h = await startHarness({ ports: () => ({ contacts: resendContacts({ apiKey: resend.apiKey, baseUrl: resend.url }) }) });
    shop = await makeMarketplace(h, 'shop');
  });
  afterAll(async () => {
    await h.close();
    await resend.close();
  });

  test('sign-ups wait for the audience; setting it in the console adds each waiting one once', async () => {
    await sign(h, shop.publishable, { email: 'early@example.com', first_name: 'Early' });
    await h.runJobs();
    expect(resend.contactCreations()).toBe(0);
    let exported = await h.console.newsletter.export({ marketplace: 'shop' });
    expect(exported.contact_list).toEqual({ provider: 'resend', audience_id: null });
    expect(exported.items.map((i) => i.contact)).toEqual([null]);

    const audience = resend.createSegment('Shop newsletter (test)');
    await h.console.marketplace.update({ marketplace: 'shop', settings: { newsletter_audience_id: audience } });
    await h.console.marketplace.update({ marketplace: 'shop', settings: { newsletter_audience_id: audience } });
    await h.runJobs();
    await sign(h, shop.publishable, { email: 'LATER@example.com' });
    await h.runJobs();
    expect(resend.segment(audience).map((c) => [c.email, c.first_name])).toEqual([
      ['early@example.com', 'Early'],
      ['later@example.com', null],
    ]);
    expect(resend.contactCreations()).toBe(2);
    exported = await h.console.newsletter.export({ marketplace: 'shop' });
    expect(exported.contact_list).toEqual({ provider: 'resend', audience_id: audience });
    expect(exported.items.map((i) => [i.email, i.contact?.provider])).toEqual([
      ['early@example.com', 'resend'],
      ['LATER@example.com', 'resend'],
    ]);
  });

  test('a Resend outage is retried by the job until the contact is added', async () => {
    resend.failNext(1, 503);
    await sign(h, shop.secret, { email: 'outage@example.com' });
    await h.runJobs();
    const waiting = await rows(h, `select contact_id, last_error is not null as failed from newsletter_subscribers s join graphile_worker.jobs j on j.key = 'add-newsletter-contact:' || s.id where s.email = 'outage@example.com'`);
    expect(waiting).toEqual([{ contact_id: null, failed: true }]);
    await h.orm.em.getConnection().execute(`update graphile_worker._private_jobs set run_at = now()`);
    await h.runJobs();
    const audience = (await h.console.newsletter.export({ marketplace: 'shop' })).contact_list.audience_id!;
    expect(resend.segment(audience).map((c) => c.email)).toContain('outage@example.com');
  });

  test('an address Resend refuses for good is given up on: no retry, the sign-up stays off the list', async () => {
    resend.failNext(1, 422);
    await sign(h, shop.secret, { email: 'refused@example.com' });
    await h.runJobs();
    expect(await rows(h, `select count(*)::int as n from graphile_worker.jobs where task_identifier = 'add-newsletter-contact'`)).toEqual([{ n: 0 }]);
    const item = (await h.console.newsletter.export({ marketplace: 'shop' })).items.find((i) => i.email === 'refused@example.com');
    expect(item?.contact).toBeNull();
  });
});
