import pg from 'pg';
import { beforeAll, expect, test } from 'vitest';
import { sellingSuite } from './selling.suite.js';

/**
 * The back office's listings page reads a page's photos, terms and sites once for the whole page
 * (issue 30 item 7), not once per listing: the statements a page sends do not grow with its length.
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
