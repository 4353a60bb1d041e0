import pg from 'pg';
import { beforeAll, expect, test } from 'vitest';
import { crossTenantEm, tenantEm } from '@hm/db/orm';
import { AuditEntrySchema, MarketplaceSchema, UserSchema } from '@hm/db/entities';
import { toUserBody } from '@hm/domain/accounts';
import { toAuditBody } from '@hm/domain/operators';
import { sellingSuite } from './selling.suite.js';

/**
 * The back office's listings page reads a page's photos, terms and sites once for the whole page
 * (issue 30 item 7), not once per listing: the statements a page sends do not grow with its length.
 * The users page and the audit trail are read as plain rows too: the same answers as the entities.
 */
const s = sellingSuite();
let token: string;

beforeAll(async () => {
  for (let i = 0; i < 3; i++) await s.publish(s.open, s.seller, await s.draftWithPhoto(s.open, s.seller, s.complete(s.open)));
  const out = await s.h.console.operators.create({ marketplace: 'open', email: 'pages@open.example', role: 'viewer' });
  const accepted = await s.h.request({ method: 'POST', url: '/console/v1/invitations/accept', payload: { token: new URL(out.invitation_url).searchParams.get('token')!, password: 'correct horse battery' } });
  expect(accepted.statusCode, accepted.body).toBe(200);
  token = accepted.json().token;
});

/** The page, and the statements sent to Postgres meanwhile (pg's protocol messages: simple queries and extended executes of every connection of this process; nothing else runs). */
async function page(limit: number) {
  let statements = 0;
  const proto = pg.Connection.prototype as unknown as Record<'query' | 'execute', (...a: unknown[]) => unknown>;
  const originals = { query: proto.query, execute: proto.execute };
  for (const name of ['query', 'execute'] as const) {
    proto[name] = function (this: unknown, ...args: unknown[]) {
      statements++;
      return originals[name].apply(this, args);
    };
  }
  try {
    const res = await s.h.request({ method: 'GET', url: `/console/v1/listings?limit=${limit}`, key: token });
    expect(res.statusCode, res.body).toBe(200);
    return { items: res.json().items as { id: string; images: unknown[]; terms: unknown; seller: unknown }[], statements };
  } finally {
    Object.assign(proto, originals);
  }
}

test('a page of 3 listings sends as many statements as a page of 1, and each listing still has its photos, terms and seller (name and address joined in)', async () => {
  const me = (await s.h.request({ method: 'GET', url: '/v1/me', key: s.open.secret, session: s.seller })).json();
  const one = await page(1);
  const three = await page(3);
  expect(one.items).toHaveLength(1);
  expect(three.items).toHaveLength(3);
  expect(three.statements).toBe(one.statements);
  for (const l of three.items) {
    expect(l.images).toHaveLength(1);
    expect(l.terms).toBeTruthy();
    expect(l.seller).toEqual({ id: me.id, display_name: me.display_name, email: me.email });
  }
  // the page's first listing is the same body whether it comes alone or with others
  expect(three.items[0]).toEqual(one.items[0]);
});

/** Every page of a console list (`limit` each, following next_cursor) as one list of items. */
async function allPages(path: string, limit: number) {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await s.h.request({ method: 'GET', url: `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key: token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { items: unknown[]; next_cursor?: string };
    expect(body.items.length).toBeLessThanOrEqual(limit);
    items.push(...body.items);
    if (!body.next_cursor) return items;
    cursor = body.next_cursor;
  }
  throw new Error('more than 100 pages');
}

const open = async () => tenantEm(s.h.orm, (await crossTenantEm(s.h.orm).findOneOrFail(MarketplaceSchema, { slug: 'open' })).id);

test('the users page (plain rows) answers what the entities did: every page, by address in any case, one past and one short of a page', async () => {
  for (let i = 0; i < 3; i++) {
    s.h.clock.advance(1000);
    const res = await s.h.request({ method: 'POST', url: '/v1/users', key: s.open.secret, payload: { email: `Reader${i}@Open.example`, password: 'correct horse battery' } });
    expect(res.statusCode, res.body).toBe(201);
  }
  // one of them blocked (`blocked: true` on the page)
  const blocking = await open();
  (await blocking.findOneOrFail(UserSchema, { emailNormalized: 'reader1@open.example' })).blockedAt = s.h.clock.now();
  await blocking.flush();
  const em = await open();
  const users = await em.find(UserSchema, {}, { orderBy: { createdAt: 'desc', id: 'desc' } });
  expect(users.length).toBeGreaterThanOrEqual(5);
  expect(users.filter((u) => u.blockedAt)).toHaveLength(1);
  const expected = users.map((u) => JSON.parse(JSON.stringify({ ...toUserBody(u), blocked: u.blockedAt !== null && u.blockedAt !== undefined })));
  for (const limit of [1, 2, users.length - 1, users.length, users.length + 1]) expect(await allPages('/console/v1/users', limit)).toEqual(expected);
  const one = users[1]!;
  expect(await allPages(`/console/v1/users?email=${encodeURIComponent(one.email.toUpperCase())}`, 1)).toEqual([expected[1]]);
  expect(await allPages('/console/v1/users?email=nobody%40open.example', 1)).toEqual([]);
});

test('the audit trail (plain rows) answers what the entities did: every page, by action, operator and time (`from` inclusive, `to` exclusive)', async () => {
  // sign-ins leave rows too (a failed one and a good one), a second apart
  for (const password of ['not the password', 'correct horse battery']) {
    s.h.clock.advance(1000);
    await s.h.request({ method: 'POST', url: '/console/v1/sessions', payload: { marketplace: 'open', email: 'pages@open.example', password } });
  }
  const em = await open();
  const entries = await em.find(AuditEntrySchema, {}, { orderBy: { createdAt: 'desc', id: 'desc' } });
  expect(entries.length).toBeGreaterThanOrEqual(3);
  const expected = entries.map((e) => JSON.parse(JSON.stringify(toAuditBody(e))));
  for (const limit of [1, 2, entries.length, entries.length + 1]) expect(await allPages('/console/v1/audit', limit)).toEqual(expected);
  const first = entries.at(-1)!;
  const at = first.createdAt.toISOString();
  expect(await allPages(`/console/v1/audit?action=${encodeURIComponent(first.action)}`, 1)).toEqual(expected.filter((e) => e.action === first.action));
  expect(await allPages(`/console/v1/audit?from=${at}`, 2)).toEqual(expected.filter((e) => e.at >= at));
  expect(await allPages(`/console/v1/audit?to=${at}`, 2)).toEqual(expected.filter((e) => e.at < at));
  if (first.actorId) expect(await allPages(`/console/v1/audit?operator=${first.actorId}`, 1)).toEqual(expected.filter((e) => e.actor.id === first.actorId));
});
