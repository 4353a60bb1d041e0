import { describe, expect, test, beforeAll } from 'vitest';
import { sellingSuite } from './selling.suite.js';
import { consoleClient, type Op } from './console.suite.js';
import { jpeg } from './harness.js';

/**
 * The back office's content pages and media library, the newsletter CSV and payouts (issue 26):
 * problems listed at their fields, what an admin saves is read back and published, viewers read
 * (403 on writes), another marketplace sees none of it, no token or an API key is 401.
 */
const s = sellingSuite();
const { call, operator, auditRows } = consoleClient(s);

let admin: Op;
let viewer: Op;
let stranger: Op; // an admin of another marketplace
let photo: Buffer;

beforeAll(async () => {
  admin = await operator('curated', 'boss@curated.example', 'admin');
  viewer = await operator('curated', 'watch@curated.example', 'viewer');
  stranger = await operator('open', 'boss@open.example', 'admin');
  photo = await jpeg(400, 300);
});

describe('content pages and media', () => {
  test('a page with problems: 422 listing every one next to its field, nothing saved', async () => {
    const before = (await auditRows(admin.token)).length;
    const res = await call('PUT', '/console/v1/pages/help/en', admin.token, {
      page: {
        title: 'Help',
        description: 'How it works.',
        blocks: [
          { id: 'a', type: 'text', body: '' },
          { id: 'a', type: 'hero', heading: 'Hi', image_id: '0190f0e0-0000-7000-8000-000000000001' },
          { id: 'c', type: 'nope' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(422);
    const locations = res.json().errors.map((e: { location: string }) => e.location);
    expect(locations).toEqual(expect.arrayContaining(['body.page.blocks.0.body', 'body.page.blocks.1.id', 'body.page.blocks.1.image_id']));
    expect(locations.some((l: string) => l.startsWith('body.page.blocks.2'))).toBe(true);
    expect((await call('GET', '/console/v1/pages/help/en', admin.token)).statusCode).toBe(404);
    expect((await auditRows(admin.token)).length).toBe(before);
  });

  test('saved, read back as the form’s values, published to the shop, unpublished again', async () => {
    const page = { title: 'Delivery', description: 'How we deliver.', blocks: [{ id: 'faq', type: 'faq', heading: 'Questions', questions: [{ question: 'When?', answer: 'In a week.' }] }] };
    expect((await call('PUT', '/console/v1/pages/delivery/en', admin.token, { page })).statusCode).toBe(200);
    const got = await call('GET', '/console/v1/pages/delivery/en', viewer.token);
    expect(got.json()).toMatchObject({ page: { slug: 'delivery', locale: 'en', published: false }, draft: page });
    expect((await call('GET', '/console/v1/pages/delivery/en', stranger.token)).statusCode).toBe(404);
    expect((await call('GET', '/console/v1/pages', viewer.token)).json().items.map((p: { slug: string }) => p.slug)).toContain('delivery');
    const shop = () => s.h.request({ method: 'GET', url: '/v1/pages/delivery?locale=en', key: s.curated.publishable });
    expect((await shop()).statusCode).toBe(404);
    const link = await call('POST', '/console/v1/pages/delivery/en/preview-link', admin.token);
    expect(link.json().preview.url).toContain('/en/preview/delivery?token=pv_');
    expect((await call('POST', '/console/v1/pages/delivery/en/publish', admin.token)).json().page.published).toBe(true);
    expect((await shop()).statusCode).toBe(200);
    expect((await call('POST', '/console/v1/pages/delivery/en/unpublish', admin.token)).json().page.published).toBe(false);
    expect((await shop()).statusCode).toBe(404);
  });

  test('media: an upload (the image as the body, alt in the query) is in the library; viewers 403 before the body is read; not an image 415', async () => {
    const up = await s.h.request({ method: 'POST', url: '/console/v1/media?alt=A%20chair&alts.sv=En%20stol', key: admin.token, headers: { 'content-type': 'image/jpeg' }, payload: photo });
    expect(up.statusCode, up.body).toBe(201);
    const image = up.json().image;
    expect(image).toMatchObject({ alt: 'A chair', alts: { sv: 'En stol' }, width: 400, height: 300 });
    const [row] = await auditRows(admin.token);
    expect(row).toMatchObject({ action: 'media.upload', target: { type: 'media', id: image.id }, data: { bytes: photo.length, alt: 'A chair' } });
    const list = await call('GET', '/console/v1/media', viewer.token);
    expect(list.json().items[0].id).toBe(image.id);
    expect((await call('GET', '/console/v1/media', stranger.token)).json().items).toEqual([]);
    const byViewer = await s.h.request({ method: 'POST', url: '/console/v1/media?alt=x', key: viewer.token, headers: { 'content-type': 'image/jpeg' }, payload: photo });
    expect([byViewer.statusCode, byViewer.json().code]).toEqual([403, 'forbidden']);
    expect((await s.h.request({ method: 'POST', url: '/console/v1/media?alt=x', headers: { 'content-type': 'image/jpeg' }, payload: photo })).statusCode).toBe(401);
    expect((await s.h.request({ method: 'POST', url: '/console/v1/media?alt=x', key: s.curated.secret, headers: { 'content-type': 'image/jpeg' }, payload: photo })).statusCode).toBe(401);
    const text = await s.h.request({ method: 'POST', url: '/console/v1/media?alt=x', key: admin.token, headers: { 'content-type': 'image/jpeg' }, payload: Buffer.from('not an image at all') });
    expect(text.statusCode, text.body).toBe(415);
    const noAlt = await s.h.request({ method: 'POST', url: '/console/v1/media?colour=red', key: admin.token, headers: { 'content-type': 'image/jpeg' }, payload: photo });
    expect([noAlt.statusCode, noAlt.json().errors.map((e: { location: string }) => e.location)]).toEqual([422, ['query.colour']]);
    const missingAlt = await s.h.request({ method: 'POST', url: '/console/v1/media', key: admin.token, headers: { 'content-type': 'image/jpeg' }, payload: photo });
    expect([missingAlt.statusCode, missingAlt.json().errors.map((e: { location: string }) => e.location)]).toEqual([422, ['query.alt']]);
    // a NUL in the alt text: a problem at its field (it used to reach the database and answer 503)
    const nul = await s.h.request({ method: 'POST', url: '/console/v1/media?alt=a%00b', key: admin.token, headers: { 'content-type': 'image/jpeg' }, payload: photo });
    expect([nul.statusCode, nul.json().errors.map((e: { location: string }) => e.location)]).toEqual([422, ['query.alt']]);
  });
});

describe('newsletter, payouts', () => {
  test('the newsletter export is a CSV download (viewer too): a header row, one row per sign-up, quoted and formula-safe', async () => {
    for (const body of [{ email: 'first@example.com', first_name: 'Ann, "Annie"', locale: 'en', source: 'footer' }, { email: 'second@example.com', first_name: '=HYPERLINK("x")' }]) {
      expect((await s.h.request({ method: 'POST', url: '/v1/newsletter/subscribers', key: s.curated.publishable, payload: body })).statusCode).toBe(202);
    }
    const res = await s.h.request({ method: 'GET', url: '/console/v1/newsletter/subscribers.csv', key: viewer.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="newsletter-subscribers.csv"');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('email,first_name,locale,source,subscribed_at,contact_provider,contact_id,contact_added_at');
    expect(lines[1]).toMatch(/^first@example\.com,"Ann, ""Annie""",en,footer,\d{4}-/);
    expect(lines[2]).toMatch(/^second@example\.com,"'=HYPERLINK\(""x""\)",/);
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(4);
    const other = await s.h.request({ method: 'GET', url: '/console/v1/newsletter/subscribers.csv', key: stranger.token });
    expect(other.body.split('\r\n')).toHaveLength(2); // the header only
    expect((await s.h.request({ method: 'GET', url: '/console/v1/newsletter/subscribers.csv' })).statusCode).toBe(401);
    expect((await s.h.request({ method: 'GET', url: '/console/v1/newsletter/subscribers.csv', key: s.curated.secret })).statusCode).toBe(401);
  });

  test('payouts: the reconciliation report and the failed list are JSON (viewer too); retrying needs an admin and a failed payout of this marketplace', async () => {
    const report = await call('GET', '/console/v1/payouts/reconciliation', viewer.token);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toMatchObject({ ok: true, checked: 0, mismatches: [], paid_twice: [] });
    expect((await call('GET', '/console/v1/payouts/failed?limit=1000', viewer.token)).json()).toEqual({ items: [] });
    expect((await call('GET', '/console/v1/payouts/failed?limit=1001', viewer.token)).statusCode).toBe(422);
    const order = '0190f0e0-0000-7000-8000-000000000009';
    expect((await call('POST', `/console/v1/orders/${order}/payout/retry`, viewer.token)).statusCode).toBe(403);
    expect((await call('POST', `/console/v1/orders/${order}/payout/retry`, admin.token)).statusCode).toBe(404);
  });
});
