import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHarness, tokenOf, type Harness } from './harness.js';
import { buildWorld, type World } from './fuzz/fixture.js';
import { METHODS, ok, ownershipMatrix, type Fixture, type Json, type Send, type Surface } from './ownership/matrix.js';

/**
 * The ownership matrix over the back office's own document (/console/v1/openapi.json), with the
 * machinery of /v1's (ownership/matrix.ts): every operation with a path parameter, on objects of
 * marketplace A, called by
 *   (a) an admin of marketplace A (the owner)   → 2xx for reads (writes are not repeated as the owner)
 *   (b) a viewer of marketplace A               → 2xx for reads, 403 for every write
 *   (c) an admin of marketplace B               → 404
 *   (d) no token                                → 401
 *   (e) an expired operator session of A        → 401
 *   (f) marketplace A's secret API key          → 401 (API keys are not for /console)
 * Every answer goes through the harness, so it is also checked against the console document.
 */
const FIXTURES: Record<string, Fixture<World>> = {
  '/listings/{id}': { value: (w) => w.listings.onSale[0]! },
  '/conversations/{id}': { value: (w) => w.conversations[1]! }, // the support conversation: the team may reply to it
  '/users/{id}': { value: (w) => w.bob.id },
  '/orders/{id}': { value: (w) => w.orders.booked[0]! },
  '/keys/{id}': { value: () => spareKey }, // a publishable key of A made for this (a revoke the matrix lets through would not spoil the world's)
  '/webhooks/{id}': { value: () => spareWebhook }, // a webhook endpoint of A (its delivery log, changes, replay)
  '/operators/{id}': { value: () => spareOperator }, // a viewer of A invited for this (a removal the matrix let through would not sign anyone out)
  '/pages/{slug}': { value: () => 'about' }, // published by the world's buildPages in A only
  '/pages/{}/{locale}': { value: () => 'en' },
};
let spareKey: string;
let spareWebhook: string;
let spareOperator: string;
/** Saving a page creates it: another marketplace's admin saves a page of their own (as for a slug nobody has). */
const SAME_AS_NEVER_EXISTING = { 'PUT /pages/{slug}/{locale}': 'saving creates the page in the caller’s own marketplace' };

interface Callers {
  admin: string;
  viewer: string;
  foreignAdmin: string;
  expired: string;
}

function consoleSurface(w: World, callers: Callers, fixtures = FIXTURES): Surface<World> {
  return {
    base: '/console/v1',
    file: 'apps/api/test/console-ownership-matrix.e2e.test.ts',
    fixtures,
    query: {},
    sameAsNeverExisting: SAME_AS_NEVER_EXISTING,
    owner: () => ({ key: callers.admin }),
    cells: ({ method }) => {
      const read = method === 'get';
      return [
        ...(read ? [{ caller: 'a: admin of marketplace A', auth: { key: callers.admin }, expected: ok, label: '2xx' }] : []),
        { caller: 'b: viewer of marketplace A', auth: { key: callers.viewer }, expected: read ? ok : (s: number) => s === 403, label: read ? '2xx' : '403' },
        { caller: 'c: admin of marketplace B', foreign: true, auth: { key: callers.foreignAdmin }, expected: (s: number) => s === 404, label: '404' },
        { caller: 'd: no token', auth: {}, expected: (s: number) => s === 401, label: '401' },
        { caller: 'e: expired session', auth: { key: callers.expired }, expected: (s: number) => s === 401, label: '401' },
        { caller: 'f: an API key', auth: { key: w.secret }, expected: (s: number) => s === 401, label: '401' },
      ];
    },
  };
}

let h: Harness;
let w: World;
let doc: Json;
let callers: Callers;
const send = (h: Harness): Send => ({ method, url, key, body }) => h.request({ method: method as never, url, ...(key && { key }), ...(body !== undefined && { payload: body as object }) });

/** Invites through the command line's definition and accepts over HTTP: a signed-in operator's token. */
async function operatorToken(slug: string, email: string, role: 'admin' | 'viewer'): Promise<string> {
  const { invitation_url } = await h.console.operators.create({ marketplace: slug, email, role });
  const res = await h.request({ method: 'POST', url: '/console/v1/invitations/accept', payload: { token: tokenOf(invitation_url), password: 'correct horse battery' } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token;
}

beforeAll(async () => {
  h = await startHarness();
  w = await buildWorld(h);
  doc = (await h.app.inject({ method: 'GET', url: '/console/v1/openapi.json' })).json();
  spareKey = (await h.console.keys.create({ marketplace: 'fuzz', kind: 'publishable' })).key.id;
  spareWebhook = (await h.console.webhooks.create({ marketplace: 'fuzz', url: 'http://127.0.0.1:9/hooks', events: '*' })).endpoint.id;
  spareOperator = (await h.console.operators.create({ marketplace: 'fuzz', email: 'spare@fuzz.example', role: 'viewer' })).operator.id;
  // a session of A's admin left unused for 12 hours (and a minute): expired; the others sign in after
  const expired = await operatorToken('fuzz', 'gone@fuzz.example', 'admin');
  h.clock.advance(12 * 60 * 60_000 + 60_000);
  callers = {
    expired,
    admin: await operatorToken('fuzz', 'boss@fuzz.example', 'admin'),
    viewer: await operatorToken('fuzz', 'watch@fuzz.example', 'viewer'),
    foreignAdmin: await operatorToken('other', 'boss@other.example', 'admin'),
  };
}, 180_000);
afterAll(() => h.close());

test('every /console/v1 operation with a path parameter: owner reads, viewer 403 on writes, marketplace B → 404, no / expired token or an API key → 401', async () => {
  const operations = Object.entries(doc.paths as Json).filter(([p]) => p.includes('{')).flatMap(([, item]) => Object.keys(item as Json).filter((m) => METHODS.includes(m)));
  const reads = Object.entries(doc.paths as Json).filter(([p]) => p.includes('{')).filter(([, item]) => 'get' in (item as Json)).length;
  const { failures, cells } = await ownershipMatrix(doc, w, consoleSurface(w, callers), send(h));
  expect(failures).toEqual([]);
  expect(cells).toBe(operations.length * 5 + reads); // every operation by every caller, reads by the owner too
  expect(operations.length).toBeGreaterThanOrEqual(10);
}, 120_000);

test('the gate itself: a console operation whose path parameter has no fixture fails, saying which to add', async () => {
  const added = { paths: { '/widgets/{id}': { delete: { security: [{ operatorSession: [] }], responses: {} } } } }; // the gate alone (the matrix above ran every operation)
  const { failures } = await ownershipMatrix(added, w, consoleSurface(w, callers), send(h));
  expect(failures).toEqual([expect.stringContaining("DELETE /widgets/{id}: no fixture for path parameter `id`: add FIXTURES['/widgets/{id}']")]);
});
