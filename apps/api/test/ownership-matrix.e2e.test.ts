import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { keyRefusal } from '@hm/contract/trpc';
import { addApiKeyResolution } from '../src/http/auth.js';
import { apiKeyAuthenticator } from '../src/http/api-key-cache.js';
import { refuse } from '../src/http/problem.js';
import { startHarness, type Harness } from './harness.js';
import { buildWorld, type World } from './fuzz/fixture.js';
import { METHODS, ok, ownershipMatrix, type Fixture, type Json, type Send, type Surface } from './ownership/matrix.js';

/**
 * The ownership matrix, generated from the published document's paths (not from a list kept here):
 * every operation with a path parameter is called on objects of user A (alice) of marketplace A by
 *   (a) user B of marketplace A                     → 404 (the public answer for public data)
 *   (b) a user of marketplace B with B's secret key → 404
 *   (c) marketplace A's publishable key             → 403 (the public answer for public data)
 *   (d) no key                                      → 401
 *   (e) a revoked key of marketplace A              → 401
 * with user A's own session in (c)–(e), so only the key differs. Public data is what the document
 * says a publishable key may read, or what FIXTURES marks public (with why); the file URLs that need
 * no key answer everyone. The objects come from the fuzz world (fuzz/fixture.ts).
 */

/**
 * One fixture per path parameter, keyed by the path up to and including it (`{…}` for the
 * parameters before it): a new operation under a known prefix is covered at once; a new prefix
 * makes the matrix fail until it gets a fixture here.
 */
const FIXTURES: Record<string, Fixture<World>> = {
  '/catalog-terms/{kind}': { value: () => 'brand' },
  '/catalog-terms/{}/{slug}': { value: () => TERM_OF_A_ONLY },
  '/listings/{id}': { value: (w) => w.listings.onSale[0]! },
  '/me/listings/{id}': { value: (w) => w.images.delete.listing },
  '/me/listings/{}/images/{image_id}': { value: (w) => w.images.delete.ids[0]! },
  '/me/favorites/{id}': { value: (w) => w.listings.onSale[1]!, public: 'any user may save (and forget) a listing on sale' },
  '/me/orders/{id}': { value: (w) => w.orders.booked[0]! }, // shipped to a booking zone: its delivery booking reads too
  '/me/orders/{}/transitions/{transition}': { value: () => 'mark-received-early' },
  '/me/conversations/{id}': { value: (w) => w.conversations[0]! },
  '/pages/{slug}': { value: (w) => w.pages.slugs[0]! },
  '/images/{id}': { value: (w) => w.images.order.ids[0]! },
  '/images/{}/{file}': { value: () => 'thumb.jpg' },
  '/media/{id}': { value: (w) => w.pages.media[0]! },
  '/media/{}/{file}': { value: () => 'thumb.jpg' },
};
/** Both marketplaces of the world have the same catalogue: a term slug only marketplace A has. */
const TERM_OF_A_ONLY = 'only-in-a';
/**
 * Operations that answer an id nobody owns as they answer any id, and why: there the tenancy rule is
 * "another marketplace's id gets what a never-existing id gets" (so it tells nothing), checked as such.
 */
const SAME_AS_NEVER_EXISTING: Record<string, string> = {
  'DELETE /me/favorites/{id}': 'forgets a listing from the caller’s own saved ones: 204 for any id (spec), one that never existed too',
};
/** required query parameters, by name */
const QUERY: Record<string, (w: World) => string> = { token: (w) => w.pages.previewToken };

interface Callers {
  userB: { key: string; session: string };
  foreign: { key: string; session: string };
  owner: { session: string };
  publishable: string;
  revoked: string;
}

/** /v1's callers: (a)–(e) above, with user A's own session in (c)–(e), so only the key differs. */
function v1Surface(w: World, callers: Callers, fixtures = FIXTURES): Surface<World> {
  return {
    base: '/v1',
    file: 'apps/api/test/ownership-matrix.e2e.test.ts',
    fixtures,
    query: QUERY,
    sameAsNeverExisting: SAME_AS_NEVER_EXISTING,
    owner: ({ op, doc }) => ({ key: w.secret, ...(withSession(op, doc) && { session: callers.owner.session }) }),
    cells: ({ op, doc, isPublic }) => {
      const schemes = securityOf(op, doc).flatMap((s) => Object.keys(s));
      const noKey = schemes.length === 0;
      const publicData = schemes.includes('publishableKey');
      const session = (s: string) => (withSession(op, doc) ? { session: s } : {});
      return [
        { caller: 'a: user B of marketplace A', auth: { key: w.secret, ...session(callers.userB.session) }, expected: noKey || publicData || isPublic ? ok : (s) => s === 404, label: noKey || publicData || isPublic ? '2xx (public)' : '404' },
        { caller: 'b: user of marketplace B, B’s key', foreign: true, auth: { key: callers.foreign.key, ...session(callers.foreign.session) }, expected: noKey ? ok : (s) => s === 404, label: noKey ? '2xx (no key needed)' : '404' },
        { caller: 'c: A’s publishable key', auth: { key: callers.publishable, ...session(callers.owner.session) }, expected: noKey || publicData ? ok : (s) => s === 403, label: noKey || publicData ? '2xx (public)' : '403' },
        { caller: 'd: no key', auth: { ...session(callers.owner.session) }, expected: noKey ? ok : (s) => s === 401, label: noKey ? '2xx (no key needed)' : '401' },
        { caller: 'e: revoked key', auth: { key: callers.revoked, ...session(callers.owner.session) }, expected: noKey ? ok : (s) => s === 401, label: noKey ? '2xx (no key needed)' : '401' },
      ];
    },
  };
}
const securityOf = (op: Json, doc: Json) => (op.security ?? doc.security ?? []) as Json[];
/** a session only where every way to call it needs one (an optional session would personalise a public read) */
const withSession = (op: Json, doc: Json) => securityOf(op, doc).length > 0 && securityOf(op, doc).every((r) => 'userSession' in r);

let h: Harness;
let w: World;
let doc: Json;
let callers: Callers;
/** through the harness, so every documented answer is also checked against the document; `raw` for the undocumented test-only route */
const send = (h: Harness, raw = false): Send => ({ method, url, key, session, body, contentType }) => {
  const request = { method: method as never, url, key, session, ...(body !== undefined && { payload: body as object, headers: contentType ? { 'content-type': contentType } : {} }) };
  if (!raw) return h.request(request);
  const { key: k, session: s, headers, ...rest } = request as typeof request & { headers?: Record<string, string> };
  return h.app.inject({ ...rest, headers: { ...headers, ...(k && { authorization: `Bearer ${k}` }), ...(s && { 'x-user-session': s }) } });
};

beforeAll(async () => {
  h = await startHarness({ extend: async (app, orm) => registerBrokenRoute(app, orm) });
  w = await buildWorld(h);
  doc = (await h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
  await h.console.terms.import({ marketplace: 'fuzz', items: [{ kind: 'brand', slug: TERM_OF_A_ONLY, names: { en: 'Only in A' }, descriptions: {} }] });
  const revoked = (await h.console.keys.create({ marketplace: 'fuzz', kind: 'secret' })).token;
  await h.console.keys.revoke({ key: revoked });
  callers = {
    userB: { key: w.secret, session: w.spareSessions[0]! },
    foreign: { key: w.foreign.secret, session: w.foreign.session },
    owner: { session: w.alice.session },
    publishable: w.publishable,
    revoked,
  };
}, 180_000);
afterAll(() => h.close());

test('every operation with a path parameter: user B → 404, marketplace B → 404, publishable key → 403, no key → 401, revoked key → 401', async () => {
  const operations = Object.entries(doc.paths as Json).filter(([p]) => p.includes('{')).flatMap(([, item]) => Object.keys(item as Json).filter((m) => METHODS.includes(m)));
  const { failures, cells } = await ownershipMatrix(doc, w, v1Surface(w, callers), send(h));
  expect(failures).toEqual([]);
  expect(cells).toBe(operations.length * 5); // every operation of the document with a path parameter, by every caller
  expect(operations.length).toBeGreaterThan(20);
}, 120_000);

describe('the gate itself', () => {
  test('an operation that skips the ownership check makes the matrix fail, caller by caller', async () => {
    const broken = { paths: { '/test-only/listings/{id}': { get: { security: [{ secretKey: [], userSession: [] }], responses: {} } } } };
    const { failures } = await ownershipMatrix(broken, w, v1Surface(w, callers, { ...FIXTURES, '/test-only/listings/{id}': FIXTURES['/me/listings/{id}']! }), send(h, true));
    expect(failures).toEqual([
      expect.stringMatching(/^GET \/test-only\/listings\/\{id\} as a: user B of marketplace A: 200, expected 404/),
      expect.stringMatching(/^GET \/test-only\/listings\/\{id\} as b: user of marketplace B, B’s key: 200, expected 404/),
    ]);
  });

  test('an operation whose path parameter has no fixture fails, saying which fixture to add', async () => {
    const added = { paths: { ...doc.paths, '/me/widgets/{id}': { delete: { security: [{ secretKey: [], userSession: [] }], responses: {} } } } };
    const { failures } = await ownershipMatrix(added, w, v1Surface(w, callers), send(h));
    expect(failures).toEqual([expect.stringContaining("DELETE /me/widgets/{id}: no fixture for path parameter `id`: add FIXTURES['/me/widgets/{id}']")]);
  });
});

/**
 * A test-only route with the bug the matrix exists to catch: it resolves and checks the API key as
 * every /v1 route does (401 without one or with a revoked one, 403 for a publishable key) and wants a
 * session, then reads the listing by id alone, whoever's and whichever marketplace's it is.
 */
async function registerBrokenRoute(app: Harness['app'], orm: Harness['orm']) {
  await app.register(
    async (scope) => {
      addApiKeyResolution(scope, apiKeyAuthenticator(orm, 'test', 0));
      scope.get('/listings/:id', async (req, reply) => {
        const refusal = keyRefusal('session', req.apiAuth);
        if (refusal) return refuse(req, reply, refusal);
        if (!req.headers['x-user-session']) return reply.code(401).send();
        const [row] = await orm.em.getConnection().execute('select id, title from listings where id = ?', [(req.params as { id: string }).id]);
        return row ?? reply.code(404).send();
      });
    },
    { prefix: '/v1/test-only' },
  );
}
