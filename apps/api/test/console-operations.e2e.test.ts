import { describe, expect, test, beforeAll } from 'vitest';
import { sellingSuite } from './selling.suite.js';
import { consoleClient, type ConsoleMethod, type Op } from './console.suite.js';
import { emailsTo } from './harness.js';

/**
 * The back office's operations beyond the review queue (issue 26): listing shipping size, commission
 * and custody, users create, vouchers, rates, content page writes and the team's roles (the pages
 * themselves, media, the newsletter CSV and payouts: console-content.e2e.test.ts). Each write: an
 * admin can (exactly one audit row per write), a viewer gets 403 on writes, another marketplace's admin 404 on ids, no token / an ended session / an API key 401.
 * They call the command line's definitions (console/procedures/*.ts), so the CLI records the same.
 */
const s = sellingSuite();
const { call, operator, auditRows } = consoleClient(s);

let admin: Op;
let viewer: Op;
let stranger: Op; // an admin of another marketplace
let ended: string; // a session that was signed out
let listing: string;
let site: string;

beforeAll(async () => {
  admin = await operator('curated', 'boss@curated.example', 'admin');
  viewer = await operator('curated', 'watch@curated.example', 'viewer');
  stranger = await operator('open', 'boss@open.example', 'admin');
  ended = (await operator('curated', 'gone@curated.example', 'viewer')).token;
  expect((await call('DELETE', '/console/v1/sessions/current', ended)).statusCode).toBe(204);
  listing = await s.draftWithPhoto(s.curated, s.curator, s.complete(s.curated));
  expect((await s.publish(s.curated, s.curator, listing)).json().status).toBe('pending_approval');
  site = (await s.h.request({ method: 'GET', url: '/v1/locations', key: s.curated.secret })).json().items[0].id;
  await s.h.console.pages.put({ marketplace: 'curated', slug: 'about', locale: 'en', page: { title: 'About', description: 'Us.', blocks: [{ id: 'intro', type: 'text', body: 'Hello.' }] } });
});

interface Write {
  name: string;
  method: ConsoleMethod;
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
    // the winner is the demotion (200) or the removal (204), whichever commits first; the loser is
    // 409 (`last_admin`), or 401 when its caller was removed before it signed in
    const demoted = x.statusCode === 200;
    const removed = y.statusCode === 204;
    expect([demoted, removed].filter(Boolean), `${x.statusCode} ${y.statusCode}`).toHaveLength(1);
    expect(demoted ? y.statusCode : x.statusCode).toBeOneOf([401, 409]);
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
