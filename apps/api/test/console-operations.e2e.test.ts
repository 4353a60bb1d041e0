import { describe, expect, test, beforeAll } from 'vitest';
import { sellingSuite } from './selling.suite.js';
import { emailsTo, jpeg } from './harness.js';

/**
 * The back office's operations beyond the review queue (issue 26): listing shipping size, commission
 * and custody, users create, vouchers, rates, content pages and media, the newsletter CSV, payouts
 * and the team's roles. Each one: an admin can (exactly one audit row per write), a viewer gets 403
 * on writes, another marketplace's admin 404 on ids, no token / an ended session / an API key 401.
 * They call the command line's definitions (console/procedures/*.ts), so the CLI records the same.
 */
const s = sellingSuite();
type Op = { token: string; id: string; email: string };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const call = (method: Method, url: string, token?: string, payload?: unknown, headers: Record<string, string> = {}) =>
  s.h.request({ method: method as 'GET', url, ...(token ? { key: token } : {}), headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

async function operator(slug: string, email: string, role: 'admin' | 'viewer'): Promise<Op> {
  const out = await s.h.console.operators.create({ marketplace: slug, email, role });
  const token = new URL(out.invitation_url).searchParams.get('token')!;
  const res = await call('POST', '/console/v1/invitations/accept', undefined, { token, password: 'correct horse battery' });
  expect(res.statusCode, res.body).toBe(200);
  return { token: res.json().token, id: res.json().operator.id, email };
}

async function auditRows(token: string): Promise<{ action: string; actor: { type: string; id?: string }; target: { type: string; id: string }; data: Record<string, unknown> }[]> {
  const rows = [];
  let cursor: string | undefined;
  do {
    const res = await call('GET', `/console/v1/audit?limit=100${cursor ? `&cursor=${cursor}` : ''}`, token);
    expect(res.statusCode, res.body).toBe(200);
    rows.push(...res.json().items);
    cursor = res.json().next_cursor;
  } while (cursor);
  return rows;
}

let admin: Op;
let viewer: Op;
let stranger: Op; // an admin of another marketplace
let ended: string; // a session that was signed out
let listing: string;
let site: string;
let photo: Buffer;

beforeAll(async () => {
  admin = await operator('curated', 'boss@curated.example', 'admin');
  viewer = await operator('curated', 'watch@curated.example', 'viewer');
  stranger = await operator('open', 'boss@open.example', 'admin');
  ended = (await operator('curated', 'gone@curated.example', 'viewer')).token;
  expect((await call('DELETE', '/console/v1/sessions/current', ended)).statusCode).toBe(204);
  listing = await s.draftWithPhoto(s.curated, s.curator, s.complete(s.curated));
  expect((await s.publish(s.curated, s.curator, listing)).json().status).toBe('pending_approval');
  site = (await s.h.request({ method: 'GET', url: '/v1/locations', key: s.curated.secret })).json().items[0].id;
  photo = await jpeg(400, 300);
  await s.h.console.pages.put({ marketplace: 'curated', slug: 'about', locale: 'en', page: { title: 'About', description: 'Us.', blocks: [{ id: 'intro', type: 'text', body: 'Hello.' }] } });
});

interface Write {
  name: string;
  method: Method;
  url: () => string;
  body?: () => unknown;
  status: number;
  action: string;
  /** acts on an id of the caller's marketplace (another marketplace's admin gets 404) */
  owned: boolean;
}

/** Every new write: viewer 403, other marketplace 404, no token / ended session / API key 401, admin with exactly one audit row. */
describe('writes', () => {
  let spare: Op;
  beforeAll(async () => {
    spare = await operator('curated', 'spare@curated.example', 'viewer');
  });
  const writes: Write[] = [
    { name: 'shipping size', method: 'PUT', url: () => `/console/v1/listings/${listing}/shipping-size`, body: () => ({ size: 'small' }), status: 200, action: 'listing.set_shipping_size', owned: true },
    { name: 'commission', method: 'PUT', url: () => `/console/v1/listings/${listing}/commission`, body: () => ({ percent: 8.5 }), status: 200, action: 'listing.set_commission', owned: true },
    { name: 'custody', method: 'PUT', url: () => `/console/v1/listings/${listing}/custody`, body: () => ({ custody: 'collecting', site }), status: 200, action: 'listing.set_custody', owned: true },
    { name: 'create user', method: 'POST', url: () => '/console/v1/users', body: () => ({ email: 'kim@example.com', first_name: 'Kim' }), status: 201, action: 'user.create', owned: false },
    { name: 'create voucher', method: 'POST', url: () => '/console/v1/vouchers', body: () => ({ code: 'WINTER10', percent: 10 }), status: 201, action: 'voucher.create', owned: false },
    { name: 'set rates', method: 'POST', url: () => '/console/v1/rates', body: () => ({ date: '2026-11-01', base: 'EUR', rates: { SEK: 11.5 } }), status: 201, action: 'rates.set', owned: false },
    { name: 'put page', method: 'PUT', url: () => '/console/v1/pages/about/en', body: () => ({ page: { title: 'About us', description: 'Who we are.', blocks: [{ id: 'intro', type: 'text', body: 'We sell chairs.' }] } }), status: 200, action: 'page.put', owned: false },
    { name: 'preview link', method: 'POST', url: () => '/console/v1/pages/about/en/preview-link', status: 201, action: 'page.preview_link', owned: true },
    { name: 'publish page', method: 'POST', url: () => '/console/v1/pages/about/en/publish', status: 200, action: 'page.publish', owned: true },
    { name: 'unpublish page', method: 'POST', url: () => '/console/v1/pages/about/en/unpublish', status: 200, action: 'page.unpublish', owned: true },
    { name: 'set role', method: 'PATCH', url: () => `/console/v1/operators/${spare.id}`, body: () => ({ role: 'admin' }), status: 200, action: 'operator.set_role', owned: true },
    { name: 'remove operator', method: 'DELETE', url: () => `/console/v1/operators/${spare.id}`, status: 204, action: 'operator.remove', owned: true },
  ];

  for (const w of writes) {
    test(`${w.name}: viewer 403, ${w.owned ? 'other marketplace 404, ' : ''}no token / ended session / API key 401, admin ${w.status} with exactly one audit row`, async () => {
      const byViewer = await call(w.method, w.url(), viewer.token, w.body?.());
      expect([byViewer.statusCode, byViewer.json().code], byViewer.body).toEqual([403, 'forbidden']);
      if (w.owned) expect((await call(w.method, w.url(), stranger.token, w.body?.())).statusCode).toBe(404);
      for (const token of [undefined, ended, s.curated.secret]) expect((await call(w.method, w.url(), token, w.body?.())).statusCode).toBe(401);
      const before = (await auditRows(admin.token)).length;
      const res = await call(w.method, w.url(), admin.token, w.body?.());
      expect(res.statusCode, res.body).toBe(w.status);
      const rows = await auditRows(admin.token);
      expect(rows).toHaveLength(before + 1);
      expect(rows[0]).toMatchObject({ actor: { type: 'operator', id: admin.id }, action: w.action });
      expect(JSON.stringify(rows[0]!.data)).not.toMatch(/pv_|ops_|sk_/);
    });
  }

  test('the listing shows what the team set; another marketplace’s admin changed nothing; an unknown size is 422 at body.size', async () => {
    const got = (await call('GET', `/console/v1/listings/${listing}`, viewer.token)).json().listing;
    expect(got).toMatchObject({ shipping_size: 'small', commission_percent: 8.5, custody: 'collecting' });
    const bad = await call('PUT', `/console/v1/listings/${listing}/shipping-size`, admin.token, { size: 'huge' });
    expect([bad.statusCode, bad.json().errors.map((e: { location: string }) => e.location)]).toEqual([422, ['body.size']]);
    const reset = await call('PUT', `/console/v1/listings/${listing}/commission`, admin.token, { percent: null });
    expect(reset.json().listing.commission_percent).toBeUndefined();
    const over = await call('PUT', `/console/v1/listings/${listing}/commission`, admin.token, { percent: 100.01 });
    expect([over.statusCode, over.json().errors[0].location]).toEqual([422, 'body.percent']);
    expect((await call('PUT', `/console/v1/listings/${listing}/commission`, admin.token, { percent: 100 })).statusCode).toBe(200);
  });
});

describe('users, vouchers and rates', () => {
  test('GET /users without `email` pages with next_cursor over every user, past 100 (the page limit), no gaps, no repeats', async () => {
    for (let i = 0; i < 101; i++) await s.h.console.users.create({ marketplace: 'curated', email: `page${i}@example.com` });
    const walk = async (limit: number) => {
      const ids: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await call('GET', `/console/v1/users?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, viewer.token);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().items.length).toBeLessThanOrEqual(limit);
        ids.push(...res.json().items.map((u: { id: string }) => u.id));
        cursor = res.json().next_cursor;
        pages++;
      } while (cursor);
      return { ids, pages };
    };
    const all = await walk(100);
    expect(all.ids.length).toBeGreaterThanOrEqual(102); // the 101 and the suite's seller
    expect(new Set(all.ids).size).toBe(all.ids.length);
    expect(all.pages).toBe(Math.ceil(all.ids.length / 100));
    const one = await walk(Math.ceil(all.ids.length / 2));
    expect(one.ids).toEqual(all.ids);
    expect(one.pages).toBe(2);
    // exactly a page's worth: no cursor to an empty page; one more: a cursor to a page of one
    const exact = await call('GET', `/console/v1/users?limit=${all.ids.length - 100}&cursor=${encodeURIComponent((await call('GET', '/console/v1/users?limit=100', viewer.token)).json().next_cursor)}`, viewer.token);
    expect([exact.json().items.length, exact.json().next_cursor]).toEqual([all.ids.length - 100, undefined]);
    expect((await call('GET', '/console/v1/users?limit=101', viewer.token)).statusCode).toBe(422);
    expect((await call('GET', '/console/v1/users?limit=0', viewer.token)).statusCode).toBe(422);
    expect((await call('GET', '/console/v1/users', stranger.token)).json().items.map((u: { id: string }) => u.id).filter((id: string) => all.ids.includes(id))).toEqual([]);
    const forged = await call('GET', `/console/v1/users?email=page1@example.com&cursor=${encodeURIComponent((await call('GET', '/console/v1/users?limit=1', viewer.token)).json().next_cursor)}`, viewer.token);
    expect([forged.statusCode, forged.json().errors[0].location]).toEqual([422, 'query.cursor']);
  });

  test('a created user gets the welcome email; the address again is 409', async () => {
    const res = await call('POST', '/console/v1/users', admin.token, { email: 'welcome@example.com', first_name: 'Wel' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().user).toMatchObject({ email: 'welcome@example.com' });
    const mails = await emailsTo(s.h, s.curated.secret, 'welcome@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.links.length).toBeGreaterThan(0);
    expect((await call('POST', '/console/v1/users', admin.token, { email: 'WELCOME@example.com' })).statusCode).toBe(409);
    const found = await call('GET', '/console/v1/users?email=welcome@example.com', viewer.token);
    expect(found.json().items.map((u: { id: string }) => u.id)).toEqual([res.json().user.id]);
  });

  test('vouchers: the list shows the new code (viewer too, not another marketplace); a code again, any case, is 409; bad fields are 422 each at its field', async () => {
    const list = (await call('GET', '/console/v1/vouchers', viewer.token)).json().items;
    expect(list.map((v: { code: string }) => v.code)).toContain('WINTER10');
    expect((await call('GET', '/console/v1/vouchers', stranger.token)).json().items).toEqual([]);
    expect((await call('POST', '/console/v1/vouchers', admin.token, { code: 'winter10', percent: 5 })).statusCode).toBe(409);
    const bad = await call('POST', '/console/v1/vouchers', admin.token, { code: 'X Y', percent: 101, max_uses: 0 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.code', 'body.max_uses', 'body.percent']);
  });

  test('rates: the rates in force today are read back exactly; another marketplace sees none', async () => {
    const set = await call('POST', '/console/v1/rates', admin.token, { date: '2026-11-02', base: 'EUR', rates: { SEK: 11.52 } });
    expect(set.statusCode, set.body).toBe(201);
    const list = await call('GET', '/console/v1/rates', viewer.token);
    expect(list.json().items).toEqual([{ date: '2026-11-02', base: 'EUR', quote: 'SEK', rate: '11.52' }]);
    expect((await call('GET', '/console/v1/rates', stranger.token)).json().items).toEqual([]);
    const self = await call('POST', '/console/v1/rates', admin.token, { date: '2026-11-02', base: 'EUR', rates: { EUR: 1 } });
    expect([self.statusCode, self.json().errors[0].location]).toEqual([422, 'body.rates.EUR']);
  });
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

describe('the team: roles and removal', () => {
  test('the last admin can be neither demoted nor removed (409 last_admin); with a second admin both work, and removal ends the sessions', async () => {
    // the spare operator made admin in the writes above was removed there: boss is the only admin now
    const demote = await call('PATCH', `/console/v1/operators/${admin.id}`, admin.token, { role: 'viewer' });
    expect([demote.statusCode, demote.json().code], demote.body).toEqual([409, 'last_admin']);
    const remove = await call('DELETE', `/console/v1/operators/${admin.id}`, admin.token);
    expect([remove.statusCode, remove.json().code]).toEqual([409, 'last_admin']);
    const second = await operator('curated', 'second@curated.example', 'viewer');
    expect((await call('PATCH', `/console/v1/operators/${second.id}`, admin.token, { role: 'admin' })).json().operator.role).toBe('admin');
    expect((await call('PATCH', `/console/v1/operators/${second.id}`, stranger.token, { role: 'viewer' })).statusCode).toBe(404);
    // the role counts on the next request
    expect((await call('POST', '/console/v1/vouchers', second.token, { code: 'SECOND', percent: 1 })).statusCode).toBe(201);
    expect((await call('DELETE', `/console/v1/operators/${second.id}`, admin.token)).statusCode).toBe(204);
    const after = await call('GET', '/console/v1/me', second.token);
    expect([after.statusCode, after.json().code]).toEqual([401, 'invalid_operator_session']);
    expect((await call('GET', '/console/v1/operators', viewer.token)).json().items.map((o: { id: string }) => o.id)).not.toContain(second.id);
    // the trail keeps who did it
    expect((await auditRows(admin.token)).find((r) => r.action === 'voucher.create' && r.actor.id === second.id)).toBeDefined();
  });

  test('two admins demoting each other at once: one wins, the team keeps an admin', async () => {
    const a = await operator('curated', 'a@curated.example', 'admin');
    const b = await operator('curated', 'b@curated.example', 'admin');
    expect((await call('PATCH', `/console/v1/operators/${admin.id}`, a.token, { role: 'viewer' })).statusCode).toBe(200);
    const [x, y] = await Promise.all([call('PATCH', `/console/v1/operators/${b.id}`, a.token, { role: 'viewer' }), call('DELETE', `/console/v1/operators/${a.id}`, b.token)]);
    // the winner is 200 (the demotion) or 204 (the removal); the loser 409 (`last_admin`), or 401 when its caller was removed before it signed in
    expect([x.statusCode, y.statusCode].filter((st) => st === 200 || st === 204)).toHaveLength(1);
    expect([x.statusCode, y.statusCode].filter((st) => st !== 200 && st !== 204)).toEqual([expect.toBeOneOf([401, 409])]);
    const admins = (await call('GET', '/console/v1/operators', viewer.token)).json().items.filter((o: { role: string }) => o.role === 'admin');
    expect(admins).toHaveLength(1);
  });

  test('the command line changes roles and removes by the same definitions, recorded as `cli`', async () => {
    const c = await operator('curated', 'c@curated.example', 'viewer');
    await s.h.console.operators.setRole({ marketplace: 'curated', id: c.id, role: 'admin' });
    await s.h.console.operators.remove({ marketplace: 'curated', id: c.id });
    const admins = (await call('GET', '/console/v1/operators', viewer.token)).json().items;
    expect(admins.map((o: { id: string }) => o.id)).not.toContain(c.id);
    const rows = await auditRows(viewer.token);
    expect(rows.slice(0, 2).map((r) => [r.action, r.actor.type])).toEqual([
      ['operator.remove', 'cli'],
      ['operator.set_role', 'cli'],
    ]);
  });
});
