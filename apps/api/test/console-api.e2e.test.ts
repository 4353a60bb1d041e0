import { describe, expect, test, beforeAll } from 'vitest';
import { sellingSuite } from './selling.suite.js';
import { consoleClient, type Op } from './console.suite.js';
import { signUp } from './harness.js';

/**
 * The back office's API (issue 26) at /console/v1: admins change things, viewers only read (403),
 * another marketplace's operator sees 404, and every write leaves exactly one audit row (signing in
 * and who may call: console-auth.e2e.test.ts).
 */
const s = sellingSuite();
const { call, operator, auditRows } = consoleClient(s);
const auditCount = async (token: string) => (await auditRows(token)).length;

let admin: Op;
let viewer: Op;
let stranger: Op; // an admin of another marketplace
let pending: string[];
let supportConversation: string;
let buyerId: string;

beforeAll(async () => {
  admin = await operator('curated', 'boss@curated.example', 'admin');
  viewer = await operator('curated', 'watch@curated.example', 'viewer');
  stranger = await operator('open', 'boss@open.example', 'admin');
  pending = [];
  for (let i = 0; i < 3; i++) {
    const id = await s.draftWithPhoto(s.curated, s.curator, s.complete(s.curated));
    // the third asks for a valuation: the team answers with an offer
    const res = await s.publish(s.curated, s.curator, id, i === 2 ? { ask_valuation: true } : {});
    expect(res.json().status, res.body).toBe(i === 2 ? 'pending_valuation' : 'pending_approval');
    pending.push(id);
  }
  const conv = await s.h.request({ method: 'POST', url: '/v1/me/conversations', key: s.curated.secret, session: s.curator, payload: { support: true, body: 'Where is my parcel?' } });
  expect(conv.statusCode, conv.body).toBe(201);
  supportConversation = conv.json().id ?? conv.json().conversation.id;
  buyerId = (await s.h.request({ method: 'GET', url: '/v1/me', key: s.curated.secret, session: s.curator })).json().id;
  // the seller's public name (the team's listings show it; blocking them below ends this session)
  expect((await s.h.request({ method: 'PATCH', url: '/v1/me', key: s.curated.secret, session: s.curator, payload: { display_name: 'Curio Corner' } })).statusCode).toBe(200);
});

/** Every back-office operation: admin can, viewer 403 (writes), another marketplace's admin 404 (ids), one audit row per write. */
describe('operations', () => {
  const writes: { name: string; method: 'POST' | 'PATCH'; url: () => string; body?: () => unknown; status: number; action: string }[] = [
    { name: 'approve', method: 'POST', url: () => `/console/v1/listings/${pending[0]}/approve`, status: 200, action: 'listing.approve' },
    { name: 'deny', method: 'POST', url: () => `/console/v1/listings/${pending[1]}/deny`, body: () => ({ note: 'Too dark.' }), status: 200, action: 'listing.deny' },
    { name: 'offer', method: 'POST', url: () => `/console/v1/listings/${pending[2]}/offer`, body: () => ({ price: { amount: 120000, currency: 'SEK' }, note: 'Our offer' }), status: 200, action: 'listing.offer' },
    { name: 'reply', method: 'POST', url: () => `/console/v1/conversations/${supportConversation}/messages`, body: () => ({ body: 'On its way.' }), status: 201, action: 'conversation.reply' },
    { name: 'block', method: 'POST', url: () => `/console/v1/users/${buyerId}/block`, status: 200, action: 'user.block' },
    { name: 'unblock', method: 'POST', url: () => `/console/v1/users/${buyerId}/unblock`, status: 200, action: 'user.unblock' },
    { name: 'invite', method: 'POST', url: () => '/console/v1/operators', body: () => ({ email: 'new@curated.example', role: 'viewer' }), status: 201, action: 'operator.invite' },
    { name: 'create key', method: 'POST', url: () => '/console/v1/keys', body: () => ({ kind: 'publishable' }), status: 201, action: 'api_key.create' },
    { name: 'settings', method: 'PATCH', url: () => '/console/v1/settings', body: () => ({ commission_percent: 12 }), status: 200, action: 'settings.update' },
    { name: 'revoke key', method: 'POST', url: () => `/console/v1/keys/${spareKey}/revoke`, status: 200, action: 'api_key.revoke' },
  ];
  /** a key of marketplace A made from the command line, for the revoke row */
  let spareKey: string;
  beforeAll(async () => {
    spareKey = (await s.h.console.keys.create({ marketplace: 'curated', kind: 'publishable' })).key.id;
  });

  for (const w of writes) {
    test(`${w.name}: viewer 403, other marketplace 404, no auth 401, admin ${w.status} with exactly one audit row`, async () => {
      const byViewer = await call(w.method, w.url(), viewer.token, w.body?.());
      expect([byViewer.statusCode, byViewer.json().code], byViewer.body).toEqual([403, 'forbidden']);
      if (!['invite', 'create key', 'settings'].includes(w.name)) { // those act on the caller's own marketplace
        const byStranger = await call(w.method, w.url(), stranger.token, w.body?.());
        expect(byStranger.statusCode, byStranger.body).toBe(404);
      }
      expect((await call(w.method, w.url(), undefined, w.body?.())).statusCode).toBe(401);
      const before = await auditCount(admin.token);
      const res = await call(w.method, w.url(), admin.token, w.body?.());
      expect(res.statusCode, res.body).toBe(w.status);
      expect(await auditCount(admin.token)).toBe(before + 1);
      const [last] = (await call('GET', '/console/v1/audit?limit=1', admin.token)).json().items;
      expect(last).toMatchObject({ actor: { type: 'operator', id: admin.id, email: admin.email }, action: w.action });
      expect(JSON.stringify(last.data)).not.toMatch(/password|ops_|opi_|sk_|pk_/);
    });
  }

  test('API keys: the token is in the creating answer only; the list shows hints (viewer too); a revoked key is 401 on /v1; twice is 409', async () => {
    const created = await call('POST', '/console/v1/keys', admin.token, { kind: 'secret' });
    expect(created.statusCode, created.body).toBe(201);
    const { key, token } = created.json();
    expect(token).toMatch(/^sk_test_/);
    expect(key).toMatchObject({ kind: 'secret', mode: 'test', hint: `sk_test_…${token.slice(-4)}`, revoked_at: null });
    const list = await call('GET', '/console/v1/keys', viewer.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items.map((k: { id: string }) => k.id)).toContain(key.id);
    expect(list.body).not.toContain(token);
    expect((await call('GET', '/console/v1/keys', stranger.token)).json().items.map((k: { id: string }) => k.id)).not.toContain(key.id);
    expect((await s.h.request({ method: 'GET', url: '/v1/categories', key: token })).statusCode).toBe(200);
    expect((await call('POST', `/console/v1/keys/${key.id}/revoke`, stranger.token)).statusCode).toBe(404);
    expect((await s.h.request({ method: 'GET', url: '/v1/categories', key: token })).statusCode).toBe(200); // the stranger changed nothing
    const revoked = await call('POST', `/console/v1/keys/${key.id}/revoke`, admin.token);
    expect([revoked.statusCode, revoked.json().key.revoked_at]).toEqual([200, expect.any(String)]);
    expect((await s.h.request({ method: 'GET', url: '/v1/categories', key: token })).statusCode).toBe(401);
    expect((await call('POST', `/console/v1/keys/${key.id}/revoke`, admin.token)).statusCode).toBe(409);
  });

  test('settings: a viewer reads them, an admin changes any subset (a bad one is 422 at its field, nothing recorded), each marketplace its own', async () => {
    const read = await call('GET', '/console/v1/settings', viewer.token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().marketplace).toMatchObject({ slug: 'curated' });
    expect((await call('GET', '/console/v1/settings', stranger.token)).json().marketplace).toMatchObject({ slug: 'open' });
    const changed = await call('PATCH', '/console/v1/settings', admin.token, { commission_percent: 15 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call('GET', '/console/v1/settings', viewer.token)).body).toBe((await call('GET', '/console/v1/settings', admin.token)).body);
    expect(JSON.stringify(changed.json().marketplace)).toContain('15');
    const before = await auditCount(admin.token);
    const bad = await call('PATCH', '/console/v1/settings', admin.token, { commission_percent: 101 });
    expect(bad.statusCode, bad.body).toBe(422);
    expect(bad.json().errors.map((e: { location: string }) => e.location)).toEqual(['body.commission_percent']);
    expect(await auditCount(admin.token)).toBe(before);
    expect((await call('GET', '/console/v1/settings', stranger.token)).body).not.toContain('"curated"');
  });

  test('orders: list and read (viewer), move (admin only; another marketplace’s or an unknown order is 404)', async () => {
    const list = await call('GET', '/console/v1/orders?state=disputed&chargeback=false', viewer.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items).toEqual([]);
    const unknown = '0190f0e0-0000-7000-8000-000000000001';
    expect((await call('GET', `/console/v1/orders/${unknown}`, viewer.token)).statusCode).toBe(404);
    const byViewer = await call('POST', `/console/v1/orders/${unknown}/transitions`, viewer.token, { transition: 'resolve-received' });
    expect([byViewer.statusCode, byViewer.json().code]).toEqual([403, 'forbidden']);
    const before = await auditCount(admin.token);
    expect((await call('POST', `/console/v1/orders/${unknown}/transitions`, admin.token, { transition: 'resolve-received' })).statusCode).toBe(404);
    const bad = await call('POST', `/console/v1/orders/${unknown}/transitions`, admin.token, { transition: 'explode' });
    expect([bad.statusCode, bad.json().errors[0].location]).toEqual([422, 'body.transition']);
    expect(await auditCount(admin.token)).toBe(before); // nothing changed, nothing recorded
  });

  test('Idempotency-Key as on /v1: a retry replays the first answer and leaves no second audit row', async () => {
    const key = '6f1c2a4e-8b7d-4c3a-9e2f-1a2b3c4d5e6f';
    const before = await auditCount(admin.token);
    const first = await call('POST', `/console/v1/conversations/${supportConversation}/messages`, admin.token, { body: 'Once.' }, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(201);
    const again = await call('POST', `/console/v1/conversations/${supportConversation}/messages`, admin.token, { body: 'Once.' }, { 'idempotency-key': key });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await auditCount(admin.token)).toBe(before + 1);
    const other = await call('POST', `/console/v1/conversations/${supportConversation}/messages`, admin.token, { body: 'Twice?' }, { 'idempotency-key': key });
    expect([other.statusCode, other.json().code]).toEqual([422, 'idempotency_key_reused']);
  });

  test('reads: listings by status with cursor paging, support inbox, users by email, operators, audit — viewer can, other marketplace sees none of it', async () => {
    const page1 = await call('GET', '/console/v1/listings?limit=1', viewer.token);
    expect(page1.statusCode, page1.body).toBe(200);
    expect(page1.json().items).toHaveLength(1);
    const page2 = await call('GET', `/console/v1/listings?limit=1&cursor=${page1.json().next_cursor}`, viewer.token);
    expect(page2.json().items[0].id).not.toBe(page1.json().items[0].id);
    const denied = await call('GET', '/console/v1/listings?status=denied', viewer.token);
    expect(denied.json().items.map((l: { id: string }) => l.id)).toEqual([pending[1]]);
    expect((await call('GET', '/console/v1/listings?status=denied', stranger.token)).json().items).toEqual([]);
    expect((await call('GET', `/console/v1/listings/${pending[0]}`, stranger.token)).statusCode).toBe(404);
    expect((await call('GET', '/console/v1/listings?status=nope', viewer.token)).statusCode).toBe(422);

    const support = await call('GET', '/console/v1/support?unanswered=true', viewer.token);
    expect(support.statusCode, support.body).toBe(200);
    expect(support.json().items).toEqual([]); // answered above
    // the CLI's definition and the back office's give the same inbox
    const fromCli = await s.h.console.support.list({ marketplace: 'curated', unanswered: false, limit: 100 });
    expect((await call('GET', '/console/v1/support', viewer.token)).json().items).toEqual(JSON.parse(JSON.stringify(fromCli.items)));
    expect((await call('GET', '/console/v1/support', viewer.token)).json().items.map((c: { id: string }) => c.id)).toContain(supportConversation);
    expect((await call('GET', `/console/v1/conversations/${supportConversation}`, stranger.token)).statusCode).toBe(404);

    const users = await call('GET', '/console/v1/users?email=CUR@example.com', viewer.token);
    expect(users.json().items.map((u: { id: string }) => u.id)).toEqual([buyerId]);
    expect((await call('GET', '/console/v1/users?email=cur@example.com', stranger.token)).json().items).toEqual([]);

    const team = (await call('GET', '/console/v1/operators', viewer.token)).json().items.map((o: { email: string }) => o.email);
    expect(team).toContain(admin.email);
    expect(team).not.toContain(stranger.email);
  });

  test('audit: newest first, filters, sign-ins (success and failure), CLI actions as `cli`, rows cannot be changed', async () => {
    const signIn = (password: string) => call('POST', '/console/v1/sessions', undefined, { marketplace: 'curated', email: viewer.email, password });
    expect((await signIn('wrong password')).statusCode).toBe(401);
    expect((await signIn('correct horse battery')).statusCode).toBe(201);
    const items = (await call('GET', '/console/v1/audit?limit=100', viewer.token)).json().items as { at: string; action: string; actor: { type: string }; request_id: string }[];
    for (let i = 1; i < items.length; i++) expect(items[i - 1]!.at >= items[i]!.at).toBe(true);
    expect(items.some((e) => e.action === 'session.sign_in')).toBe(true);
    expect(items.some((e) => e.action === 'session.sign_in_failed')).toBe(true);
    expect(items.some((e) => e.action === 'operator.invite' && e.actor.type === 'cli')).toBe(true);
    const filtered = (await call('GET', `/console/v1/audit?action=listing.deny&target_type=listing&target_id=${pending[1]}`, viewer.token)).json().items;
    expect(filtered).toHaveLength(1);
    expect(filtered[0].data).toEqual({ id: pending[1], note: 'Too dark.' });
    expect((await call('GET', `/console/v1/audit?operator=${stranger.id}`, viewer.token)).json().items).toEqual([]);
    const conn = s.h.orm.em.getConnection();
    await expect(conn.execute(`update audit_entries set action = 'x'`)).rejects.toThrow(/append-only/);
    await expect(conn.execute(`delete from audit_entries`)).rejects.toThrow(/append-only/);
  });
});

describe('sellers and sites', () => {
  test('a listing names its seller (id, display name, email): in the list, alone, in the answer to a change and in the attention queues', async () => {
    const seller = { id: buyerId, display_name: 'Curio Corner', email: 'cur@example.com' };
    const list = (await call('GET', '/console/v1/listings?limit=100', viewer.token)).json().items as { id: string; seller: unknown }[];
    expect(list.length).toBeGreaterThanOrEqual(3);
    for (const l of list) expect([l.id, l.seller]).toEqual([l.id, seller]);
    expect((await call('GET', `/console/v1/listings/${pending[0]}`, viewer.token)).json().listing.seller).toEqual(seller);
    // a new seller without a display name: an empty one, the address still there
    const { token: session, user } = await signUp(s.h, s.curated.secret, { email: 'plain.seller@example.com' });
    const unnamed = { id: user.id, display_name: '', email: 'plain.seller@example.com' };
    const fresh = await s.draftWithPhoto(s.curated, session, s.complete(s.curated));
    expect((await s.publish(s.curated, session, fresh)).json().status).toBe('pending_approval');
    const first = (await call('GET', '/console/v1/listings?limit=2', viewer.token)).json().items as { id: string; seller: unknown }[];
    expect(first.map((l) => [l.id, l.seller])).toEqual([
      [fresh, unnamed],
      [first[1]!.id, seller],
    ]);
    const queue = (await call('GET', '/console/v1/attention', viewer.token)).json().queues.listings_pending_approval.items as { id: string; seller: unknown }[];
    expect(queue.find((l) => l.id === fresh)?.seller).toEqual(unnamed);
    const set = await call('PUT', `/console/v1/listings/${fresh}/commission`, admin.token, { percent: 5 });
    expect(set.json().listing.seller).toEqual(unnamed);
    // the command line prints the same listing (its definitions are the back office's)
    expect((await s.h.console.listings.get({ id: fresh })).listing.seller).toEqual(unnamed);
  });

  test('sites: the marketplace’s active sites as /v1/locations lists them (viewer too, an inactive one left out); another marketplace sees none of them; no operator 401', async () => {
    const inactive = await s.h.console.sites.create({ marketplace: 'curated', site: { kind: 'warehouse', name: 'Closed store', line1: 'Gatan 1', postal_code: '12345', city: 'Solna', country: 'SE', active: false } });
    const shop = (await s.h.request({ method: 'GET', url: '/v1/locations', key: s.curated.secret })).json().items as { id: string }[];
    expect(shop.length).toBeGreaterThan(0);
    const res = await call('GET', '/console/v1/sites', viewer.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toEqual(shop);
    expect(res.json().items.map((x: { id: string }) => x.id)).not.toContain(inactive.site.id);
    const other = await call('GET', '/console/v1/sites', stranger.token);
    expect(other.statusCode).toBe(200);
    expect(other.json().items.filter((x: { id: string }) => shop.some((y) => y.id === x.id))).toEqual([]);
    expect((await call('GET', '/console/v1/sites')).statusCode).toBe(401);
    expect((await call('GET', '/console/v1/sites', s.curated.secret)).statusCode).toBe(401);
    // the command line's definition gives the same list
    expect(JSON.parse(JSON.stringify(await s.h.console.sites.list({ marketplace: 'curated' })))).toEqual(res.json());
  });
});
