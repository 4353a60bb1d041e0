import Fastify, { type FastifyError } from 'fastify';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { canonicalUrl, restDispatcher, type RestRefusal } from './dispatch.js';
import { httpLocation } from './input.js';
import { restRoutes, type RestRoute } from './routes.js';
import type { FieldError } from './text.js';

/** A small app of its own: the dispatcher knows nothing of it but what it is given. */
type Meta = OpenApiMeta<{ successStatus?: 200 | 201 | 204 }>;
type Ctx = { caller: string | undefined };
const t = initTRPC
  .context<Ctx>()
  .meta<Meta>()
  .create({ errorFormatter: ({ shape, error, input }) => ({ ...shape, data: { ...shape.data, formattedWith: input, cause: error.cause?.message } }) });
const op = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: `/${string}`, successStatus?: 201 | 204) => t.procedure.meta({ openapi: { method, path }, successStatus });

const calls: { path: string; input: unknown; ctx: Ctx }[] = [];
const seen =
  (path: string) =>
  ({ input, ctx }: { input: unknown; ctx: Ctx }) => {
    calls.push({ path, input, ctx });
    return { input };
  };
const count = z.number().int();
const router = t.router({
  list: op('GET', '/things')
    .input(z.object({ limit: z.number().int().max(100).optional(), flag: z.boolean().optional(), tag: z.array(z.string()).optional(), csv: z.string().optional(), q: z.string().optional() }).strict())
    .query(seen('list')),
  sorted: op('GET', '/sorted')
    .input(z.object({ sort: z.enum(['new', 'old']).optional(), seller: z.uuid().optional(), lang: z.string().min(1).max(5).optional(), ids: z.array(z.uuid()).optional(), q: z.string().optional(), limit: z.number().int().optional() }).strict())
    .query(seen('sorted')),
  get: op('GET', '/things/{id}').input(z.object({ id: z.string().max(10) })).query(seen('get')),
  create: op('POST', '/things', 201).input(z.object({ name: z.string(), count, flag: z.boolean().optional() }).strict()).mutation(seen('create')),
  update: op('PUT', '/things/{id}').input(z.object({ id: z.string(), name: z.string().optional(), count: z.number().optional() }).strict()).mutation(seen('update')),
  remove: op('DELETE', '/things/{id}', 204).input(z.object({ id: z.string() })).mutation(() => undefined),
  boom: op('GET', '/boom').input(z.void()).query(() => {
    throw new Error('disk on fire');
  }),
});

/** Zod issues at plain paths, an unknown key at its own (as an app would word them). */
const issueErrors = (error: z.ZodError, input: unknown): FieldError[] =>
  error.issues.flatMap((i) =>
    (i.code === 'unrecognized_keys' ? i.keys.map((k) => [...i.path, k]) : [i.path]).map((path) => ({
      location: path.join('.'),
      message: i.message,
      value: path.reduce<unknown>((v, k) => (v as Record<PropertyKey, unknown> | undefined)?.[k], input),
    })),
  );

class Refused extends Error {
  constructor(
    readonly code: RestRefusal,
    detail: string,
    readonly errors: FieldError[],
    readonly headers: Record<string, string>,
  ) {
    super(detail);
  }
}
const STATUS: Record<RestRefusal, number> = { not_found: 404, method_not_allowed: 405, malformed_request: 400, validation_failed: 422 };

const owners = new Map<string, object>([['7', {}], ['8', {}]]);
const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
beforeAll(async () => {
  app.setErrorHandler((err: FastifyError | Refused, _req, reply) => {
    if (err instanceof Refused) return reply.code(STATUS[err.code]).headers(err.headers).type('application/problem+json').send({ code: err.code, detail: err.message, errors: err.errors });
    return reply.code(err.statusCode ?? 500).type('application/problem+json').send({ code: err.code ?? 'internal', detail: err.message, errors: [] });
  });
  app.addContentTypeParser('application/x-thing', { parseAs: 'string' }, (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));
  const rest = restDispatcher({
    router,
    routes: restRoutes<Meta>(router),
    createContext: (req): Ctx => ({ caller: req.headers['x-caller'] as string | undefined }),
    refusal: (code, detail, { errors = [], headers = {} }) => new Refused(code, detail ?? `${errors.length} invalid`, errors, headers),
    zodErrors: issueErrors,
    conditional: {
      // what the app knows a list's answer depends on alone (here: a header names an object that stands for it)
      keepAnswerFor: (req, route) => (route.procedurePath === 'list' && req.headers['x-version'] ? owners.get(String(req.headers['x-version'])) : undefined),
      cacheControl: (req) => (req.headers['x-private'] ? 'private, no-store' : 'public, max-age=5'),
    },
    onMatch: (req, reply, route) => {
      reply.header('X-Route', route.procedurePath);
      if (req.headers['x-refuse']) return reply.code(401).send({ code: 'refused' });
    },
    sendError: (_req, reply, { error, shape, route, input }) => {
      const zod = error.cause instanceof z.ZodError ? error.cause : undefined;
      const errors = (zod ? issueErrors(zod, input) : []).map((e) => ({ location: httpLocation(route as RestRoute, e.location), message: e.message }));
      const status = { BAD_REQUEST: 422, UNSUPPORTED_MEDIA_TYPE: 415 }[error.code as string] ?? 500;
      return reply.code(status).type('application/problem+json').send({ code: error.code, errors, shape });
    },
  });
  await app.register(
    async (scope) => {
      rest.addHooks(scope);
      scope.get('/own-route', async () => ({ own: true }));
      rest.addRoute(scope);
    },
    { prefix: '/v1' },
  );
});
afterAll(() => app.close());

const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD' | 'PATCH', url: string, body?: unknown) =>
  app.inject({ method, url, ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
const lastCall = () => calls.at(-1)!;

describe('query input', () => {
  test('numbers and booleans coerced from text; repeated names as arrays in order; a comma is part of a value; empty values left out', async () => {
    const res = await inject('GET', '/v1/things?limit=5&flag=false&tag=b&tag=a&csv=a,b&q=');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ input: { limit: 5, flag: false, tag: ['b', 'a'], csv: 'a,b' } });
    expect((await inject('GET', '/v1/things?flag=true&tag=one')).json()).toEqual({ input: { flag: true, tag: ['one'] } });
    expect((await inject('GET', '/v1/things?limit=&flag=')).json()).toEqual({ input: {} });
  });

  test('a boolean is `true` or `false` only; a number that is not one is refused, every field listed', async () => {
    const res = await inject('GET', '/v1/things?flag=yes&limit=five');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: FieldError) => e.location).sort()).toEqual(['query.flag', 'query.limit']);
    for (const flag of ['1', 'TRUE', 'False', '0']) expect((await inject('GET', `/v1/things?flag=${flag}`)).statusCode).toBe(422);
    expect((await inject('GET', '/v1/things?limit=101')).json().errors).toEqual([{ location: 'query.limit', message: expect.stringMatching(/100/) }]);
  });

  test('an empty value of a parameter whose text cannot be empty (an enum, a format, a minimum length) is refused there, every one listed; other empty values are no value', async () => {
    for (const name of ['sort', 'seller', 'lang', 'ids']) {
      const res = await inject('GET', `/v1/sorted?${name}=`);
      expect(res.statusCode, name).toBe(422);
      expect(res.json().errors.map((e: FieldError) => e.location)).toEqual([name === 'ids' ? 'query.ids.0' : `query.${name}`]);
    }
    const all = await inject('GET', '/v1/sorted?sort=&seller=&lang=&q=&limit=');
    expect(all.json().errors.map((e: FieldError) => e.location).sort()).toEqual(['query.lang', 'query.seller', 'query.sort']);
    // a free text, a number: an empty value is still no value
    expect((await inject('GET', '/v1/sorted?q=&limit=')).json()).toEqual({ input: {} });
    expect((await inject('GET', '/v1/sorted?sort=old&lang=sv')).json()).toEqual({ input: { sort: 'old', lang: 'sv' } });
  });

  test('an unknown query parameter reaches the schema (a strict one refuses it)', async () => {
    expect((await inject('GET', '/v1/things?color=red')).json().errors).toEqual([{ location: 'query.color', message: expect.stringMatching(/color/) }]);
  });
});

describe('path parameters', () => {
  test('percent-decoded once before the procedure sees them', async () => {
    expect((await inject('GET', '/v1/things/caf%C3%A9')).json()).toEqual({ input: { id: 'café' } });
    expect((await inject('GET', '/v1/things/a%2Fb')).json()).toEqual({ input: { id: 'a/b' } });
    expect((await inject('GET', '/v1/things/100%2525')).json()).toEqual({ input: { id: '100%25' } });
  });

  test('malformed percent-encoding is a 400, never a 500 (Fastify refuses the URL first; the route table names the parameter itself, routes.test.ts)', async () => {
    const before = calls.length;
    for (const bad of ['%FF', '%E0%A4%A', '%']) expect((await inject('GET', `/v1/things/${bad}`)).statusCode, bad).toBe(400);
    expect(calls.length).toBe(before);
  });

  test('a trailing slash is the same operation; dot segments are resolved first', async () => {
    expect((await inject('GET', '/v1/things/abc/')).json()).toEqual({ input: { id: 'abc' } });
    expect((await inject('GET', '/v1/things/x/../abc')).json()).toEqual({ input: { id: 'abc' } });
  });
});

describe('routing', () => {
  test('HEAD on a GET operation: 204, no body, no procedure run', async () => {
    const before = calls.length;
    const res = await inject('HEAD', '/v1/things/abc');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(calls.length).toBe(before);
  });

  test('405 with Allow for a known path, 404 for an unknown one, both before onMatch', async () => {
    const wrong = await inject('PATCH', '/v1/things/abc?x=1');
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('GET, PUT, DELETE');
    expect(wrong.json()).toMatchObject({ code: 'method_not_allowed', detail: 'PATCH is not allowed on /v1/things/abc; use GET or PUT or DELETE.' });
    expect(wrong.headers['x-route']).toBeUndefined();
    const unknown = await inject('GET', '/v1/nothing/here');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'not_found', detail: 'No endpoint GET /v1/nothing/here. See /v1/openapi.json.' });
  });

  test("the scope's own routes are left alone", async () => {
    expect((await inject('GET', '/v1/own-route')).json()).toEqual({ own: true });
  });

  test('onMatch sets headers, and a reply it sends ends the request before the body is read', async () => {
    expect((await inject('GET', '/v1/things/abc')).headers['x-route']).toBe('get');
    const before = calls.length;
    const res = await app.inject({ method: 'POST', url: '/v1/things', headers: { 'x-refuse': '1', 'content-type': 'application/json' }, payload: '{"name":"a","count":1}' });
    expect(res.statusCode).toBe(401);
    expect(calls.length).toBe(before);
  });

  test("the procedure gets the app's context; success statuses come from the meta; an empty 204 has no JSON content type", async () => {
    const created = await app.inject({ method: 'POST', url: '/v1/things', headers: { 'x-caller': 'ann', 'content-type': 'application/json' }, payload: '{"name":"a","count":1}' });
    expect(created.statusCode).toBe(201);
    expect(lastCall()).toEqual({ path: 'create', input: { name: 'a', count: 1 }, ctx: { caller: 'ann' } });
    const removed = await inject('DELETE', '/v1/things/abc');
    expect(removed.statusCode).toBe(204);
    expect(removed.headers['content-type']).toBeUndefined();
  });
});

describe('problems for bad input', () => {
  test('every invalid location at once: path, query and body text, a body field shadowing a path parameter, and the schema', async () => {
    const res = await inject('PUT', '/v1/things/a%00b', { id: 'other', name: 'x\u0000', count: 'three', extra: '\ud800' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      { location: 'path.id', message: 'Must not contain NUL characters (\\u0000).', value: 'a\u0000b' },
      { location: 'body.id', message: 'Unknown field.', value: 'other' },
      { location: 'body.name', message: 'Must not contain NUL characters (\\u0000).', value: 'x\u0000' },
      { location: 'body.extra', message: 'Must be valid Unicode text (no lone surrogates).', value: '\ud800' },
      { location: 'body.count', message: expect.stringMatching(/number/), value: 'three' },
      // the schema's "unknown field" at body.extra is not repeated: that location is listed already
    ]);
    const query = await inject('GET', '/v1/things?q=a%00&limit=five');
    expect(query.json().errors.map((e: FieldError) => e.location)).toEqual(['query.q', 'query.limit']);
  });

  test('a JSON body that is not an object is refused as a whole', async () => {
    for (const body of ['[]', 'true', '3', 'null', '"x"']) {
      const res = await inject('POST', '/v1/things', body);
      expect(res.statusCode, body).toBe(422);
      expect(res.json().errors, body).toEqual([{ location: 'body', message: 'Must be a JSON object.', value: JSON.parse(body) }]);
    }
  });

  test("a procedure's errors go through the router's error formatter (with the input) to the app's sendError", async () => {
    // a body the app parsed from another media type: the operation takes JSON only
    const media = await app.inject({ method: 'POST', url: '/v1/things', headers: { 'content-type': 'application/x-thing' }, payload: 'name=a' });
    expect(media.statusCode).toBe(415);
    expect(media.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', shape: { message: 'Unsupported content-type "application/x-thing' } });
    const boom = await inject('GET', '/v1/boom');
    expect(boom.statusCode).toBe(500);
    expect(boom.json()).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', shape: { data: { cause: 'disk on fire' } } });
    const bad = await inject('GET', '/v1/things/12345678901');
    expect(bad.json()).toMatchObject({ errors: [{ location: 'path.id' }], shape: { data: { formattedWith: { id: '12345678901' } } } });
  });
});

describe('strict bodies', () => {
  test('a JSON body is typed: "5" is not 5 and "false" is not a boolean, while the same names in a query are coerced', async () => {
    const res = await inject('POST', '/v1/things', { name: 'a', count: '5', flag: 'false' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: FieldError) => e.location)).toEqual(['body.count', 'body.flag']);
    expect((await inject('GET', '/v1/things?limit=5')).json()).toEqual({ input: { limit: 5 } });
    // the schema objects stay strict for every other caller too (the typed /trpc transport)
    expect(count.safeParse('5').success).toBe(false);
  });

  test('a schema shared by a query and a body cannot be both: startup names it', () => {
    const shared = z.number();
    const both = t.router({
      create: op('POST', '/things').input(z.object({ n: shared })).mutation(() => 'ok'),
      list: op('GET', '/things').input(z.object({ n: shared.optional() })).query(() => 'ok'),
    });
    expect(() => restDispatcher({ router: both, routes: restRoutes(both), createContext: () => ({}), refusal: () => new Error(), zodErrors: () => [], sendError: (_q, r) => r })).toThrow(
      /GET \/things query\.n and POST \/things body\.n/,
    );
  });
});

describe('conditional reads', () => {
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  test('a 200 to a GET carries a strong ETag (the same for the same body, another for another) and the Cache-Control the app gives', async () => {
    const a = await get('/v1/things/abc');
    expect(a.statusCode).toBe(200);
    expect(a.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(a.headers['cache-control']).toBe('public, max-age=5');
    expect((await get('/v1/things/abc')).headers.etag).toBe(a.headers.etag);
    expect((await get('/v1/things/abd')).headers.etag).not.toBe(a.headers.etag);
    expect((await get('/v1/things/abc', { 'x-private': '1' })).headers['cache-control']).toBe('private, no-store');
  });

  test('If-None-Match naming the tag (alone, in a list, weakened by a CDN, or *) is a 304 without a body but with the tag; another tag is a 200', async () => {
    const tag = (await get('/v1/things/abc')).headers.etag as string;
    for (const header of [tag, `"other", ${tag}`, `W/${tag}`, '*']) {
      const res = await get('/v1/things/abc', { 'if-none-match': header });
      expect(res.statusCode, header).toBe(304);
      expect(res.body, header).toBe('');
      expect(res.headers.etag, header).toBe(tag);
      expect(res.headers['cache-control'], header).toBe('public, max-age=5');
    }
    for (const header of ['"other"', tag.slice(0, -2) + '"', tag.replace(/^"|"$/g, '')]) {
      const res = await get('/v1/things/abc', { 'if-none-match': header });
      expect(res.statusCode, header).toBe(200);
      expect(res.json()).toEqual({ input: { id: 'abc' } });
    }
  });

  test('an answer kept for the object it depends on: later requests with that object and URL are answered (200 or 304) without the procedure; another object or URL calls it', async () => {
    const before = calls.length;
    const first = await get('/v1/things?limit=2', { 'x-version': '7' });
    expect(first.statusCode).toBe(200);
    expect(calls.length).toBe(before + 1);
    const again = await get('/v1/things?limit=2', { 'x-version': '7' });
    expect([again.statusCode, again.body, again.headers.etag, again.headers['content-type']]).toEqual([200, first.body, first.headers.etag, first.headers['content-type']]);
    const tagged = await get('/v1/things?limit=2', { 'x-version': '7', 'if-none-match': first.headers.etag as string });
    expect([tagged.statusCode, tagged.body, tagged.headers['cache-control']]).toEqual([304, '', 'public, max-age=5']);
    expect(calls.length).toBe(before + 1);
    await get('/v1/things?limit=2', { 'x-version': '8', 'if-none-match': first.headers.etag as string });
    await get('/v1/things?limit=3', { 'x-version': '7' });
    await get('/v1/things?limit=2'); // nothing named: nothing kept
    expect(calls.length).toBe(before + 4);
  });

  test('no tag on writes, errors or refused input; a 422 is never a 304', async () => {
    const created = await app.inject({ method: 'POST', url: '/v1/things', headers: { 'content-type': 'application/json', 'if-none-match': '*' }, payload: '{"name":"a","count":1}' });
    expect(created.statusCode).toBe(201);
    expect(created.headers.etag).toBeUndefined();
    expect((await get('/v1/boom', { 'if-none-match': '*' })).headers.etag).toBeUndefined();
    const bad = await get('/v1/things/12345678901', { 'if-none-match': '*' });
    expect(bad.statusCode).toBe(422);
    expect(bad.headers.etag).toBeUndefined();
  });
});

describe('canonicalUrl: the key a kept answer is found by', () => {
  test('query pairs ordered by name, repeated names in their order, spellings kept as sent', () => {
    expect(canonicalUrl('/listings', '/v1/listings')).toBe('/listings');
    expect(canonicalUrl('/listings', '/v1/listings?')).toBe('/listings');
    expect(canonicalUrl('/listings', '/v1/listings?q=sofa')).toBe('/listings?q=sofa');
    expect(canonicalUrl('/listings', '/v1/listings?q=sofa&limit=24')).toBe(canonicalUrl('/listings', '/v1/listings?limit=24&q=sofa'));
    expect(canonicalUrl('/listings', '/v1/listings?term=a&limit=24&term=b')).toBe('/listings?limit=24&term=a&term=b');
    expect(canonicalUrl('/listings', '/v1/listings?term=b&term=a')).not.toBe(canonicalUrl('/listings', '/v1/listings?term=a&term=b'));
    // one name under two spellings: its values keep their order (the procedure sees them in it)
    expect(canonicalUrl('/listings', '/v1/listings?q=a&%71=b')).not.toBe(canonicalUrl('/listings', '/v1/listings?%71=b&q=a'));
    // a name that is not valid percent-encoding sorts by its text
    expect(canonicalUrl('/listings', '/v1/listings?z=1&%zz=2')).toBe('/listings?%zz=2&z=1');
  });
});
