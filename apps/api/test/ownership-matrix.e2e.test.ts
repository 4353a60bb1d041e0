import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { keyRefusal } from '@hm/contract/trpc';
import { parseTemplate } from '@hm/rest';
import { addApiKeyResolution } from '../src/http/auth.js';
import { apiKeyAuthenticator } from '../src/http/api-key-cache.js';
import { refuse } from '../src/http/problem.js';
import { startHarness, type Harness } from './harness.js';
import { buildWorld, type World } from './fuzz/fixture.js';

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

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Fixture {
  /** the value of this path parameter: an object of user A of marketplace A (or of the marketplace team, for catalogue data) */
  value: (w: World) => string;
  /** another user of the same marketplace may act on it (and gets what its owner gets), and why */
  public?: string;
}

/**
 * One fixture per path parameter, keyed by the path up to and including it (`{…}` for the
 * parameters before it): a new operation under a known prefix is covered at once; a new prefix
 * makes the matrix fail until it gets a fixture here.
 */
const FIXTURES: Record<string, Fixture> = {
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
type Caller = 'a: user B of marketplace A' | 'b: user of marketplace B, B’s key' | 'c: A’s publishable key' | 'd: no key' | 'e: revoked key';
type Send = (o: { method: string; url: string; key?: string; session?: string; body?: unknown; contentType?: string }) => Promise<LightMyRequestResponse>;

/** Runs the matrix over the document's operations: every cell that answered otherwise (none: the gate holds), and how many cells ran. */
async function ownershipMatrix(doc: Json, w: World, callers: Callers, send: Send, fixtures = FIXTURES): Promise<{ failures: string[]; cells: number }> {
  const failures: string[] = [];
  let cellCount = 0;
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    const parsed = parseTemplate(template);
    if (!parsed.params.length) continue;
    for (const [method, op] of Object.entries(item as Json).filter(([m]) => METHODS.includes(m))) {
      const where = `${method.toUpperCase()} ${template}`;
      const values: Record<string, string> = {};
      let isPublic: string | undefined;
      let missing = false;
      for (const [i, segment] of parsed.segments.entries()) {
        if (segment.kind !== 'param') continue;
        // the fixture's key: the template up to this parameter, earlier parameters as `{}`
        const prefix = `/${parsed.segments.slice(0, i + 1).map((s, j) => (s.kind === 'static' ? s.text : j === i ? `{${s.name}}` : '{}')).join('/')}`;
        const fixture = fixtures[prefix];
        if (!fixture) {
          failures.push(`${where}: no fixture for path parameter \`${segment.name}\`: add FIXTURES['${prefix}'] (an object of user A of marketplace A) to apps/api/test/ownership-matrix.e2e.test.ts`);
          missing = true;
          break;
        }
        isPublic ??= fixture.public;
        values[segment.name] = fixture.value(w);
      }
      if (missing) continue;
      let url = parsed.fill(values);
      const required = ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'query' && p.required).map((p) => p.name as string);
      const unknownQuery = required.filter((name) => !QUERY[name]);
      if (unknownQuery.length) {
        failures.push(`${where}: no value for required query parameter(s) ${unknownQuery.join(', ')}: add them to QUERY in apps/api/test/ownership-matrix.e2e.test.ts`);
        continue;
      }
      if (required.length) url += `?${new URLSearchParams(required.map((name): [string, string] => [name, QUERY[name]!(w)])).toString()}`;
      url = `/v1${url}`;

      const security = (op.security ?? doc.security ?? []) as Json[];
      const schemes = security.flatMap((s) => Object.keys(s));
      const noKey = schemes.length === 0;
      const publicData = schemes.includes('publishableKey');
      // a session only where every way to call it needs one (an optional session would personalise a public read)
      const withSession = security.length > 0 && security.every((r) => 'userSession' in r);
      const content = op.requestBody?.content ?? {};
      const body = content['application/json'] ? { body: content['application/json'].example ?? {} } : Object.keys(content).length ? { body: w.photo, contentType: Object.keys(content)[0] } : {};
      const ok = (status: number) => status >= 200 && status < 300;
      const cells: [Caller, { key?: string; session?: string }, (status: number) => boolean, string][] = [
        ['a: user B of marketplace A', { key: w.secret, ...(withSession && { session: callers.userB.session }) }, noKey || publicData || isPublic ? ok : (s) => s === 404, noKey || publicData || isPublic ? '2xx (public)' : '404'],
        ['b: user of marketplace B, B’s key', { key: callers.foreign.key, ...(withSession && { session: callers.foreign.session }) }, noKey ? ok : (s) => s === 404, noKey ? '2xx (no key needed)' : '404'],
        ['c: A’s publishable key', { key: callers.publishable, ...(withSession && { session: callers.owner.session }) }, noKey || publicData ? ok : (s) => s === 403, noKey || publicData ? '2xx (public)' : '403'],
        ['d: no key', { ...(withSession && { session: callers.owner.session }) }, noKey ? ok : (s) => s === 401, noKey ? '2xx (no key needed)' : '401'],
        ['e: revoked key', { key: callers.revoked, ...(withSession && { session: callers.owner.session }) }, noKey ? ok : (s) => s === 401, noKey ? '2xx (no key needed)' : '401'],
      ];
      // the fixture is real: its owner reads it (so the 404s below are not "nothing there"); writes are not repeated as the owner
      if (method === 'get') {
        const res = await send({ method: 'GET', url, key: w.secret, ...(withSession && { session: callers.owner.session }) });
        if (!ok(res.statusCode)) failures.push(`${where} as its owner: ${res.statusCode}, expected 2xx: the fixture must be an object of user A of marketplace A (${url}) ${res.body.slice(0, 120)}`);
      }
      if (SAME_AS_NEVER_EXISTING[where]) {
        const never = url.replace(encodeURIComponent(values[parsed.params[0]!]!), crypto.randomUUID());
        const missing = await send({ method: method.toUpperCase(), url: never, ...cells[1]![1], ...body });
        cells[1]![2] = (s) => s === missing.statusCode;
        cells[1]![3] = `${missing.statusCode}, as for an id that never existed (${SAME_AS_NEVER_EXISTING[where]})`;
      }
      for (const [caller, auth, expected, label] of cells) {
        const res = await send({ method: method.toUpperCase(), url, ...auth, ...body });
        cellCount++;
        if (!expected(res.statusCode)) failures.push(`${where} as ${caller}: ${res.statusCode}, expected ${label} (${url}) ${res.body.slice(0, 120)}`);
      }
    }
  }
  return { failures, cells: cellCount };
}

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
  const { failures, cells } = await ownershipMatrix(doc, w, callers, send(h));
  expect(failures).toEqual([]);
  expect(cells).toBe(operations.length * 5); // every operation of the document with a path parameter, by every caller
  expect(operations.length).toBeGreaterThan(20);
}, 120_000);

describe('the gate itself', () => {
  test('an operation that skips the ownership check makes the matrix fail, caller by caller', async () => {
    const broken = { paths: { '/test-only/listings/{id}': { get: { security: [{ secretKey: [], userSession: [] }], responses: {} } } } };
    const { failures } = await ownershipMatrix(broken, w, callers, send(h, true), { ...FIXTURES, '/test-only/listings/{id}': FIXTURES['/me/listings/{id}']! });
    expect(failures).toEqual([
      expect.stringMatching(/^GET \/test-only\/listings\/\{id\} as a: user B of marketplace A: 200, expected 404/),
      expect.stringMatching(/^GET \/test-only\/listings\/\{id\} as b: user of marketplace B, B’s key: 200, expected 404/),
    ]);
  });

  test('an operation whose path parameter has no fixture fails, saying which fixture to add', async () => {
    const added = { paths: { ...doc.paths, '/me/widgets/{id}': { delete: { security: [{ secretKey: [], userSession: [] }], responses: {} } } } };
    const { failures } = await ownershipMatrix(added, w, callers, send(h));
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
