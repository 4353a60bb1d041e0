import { z } from 'zod';
import { describe, expect, test } from 'vitest';
import { restDispatcher } from './dispatch.js';
import { restRoutes } from './routes.js';
import type { FieldError } from './text.js';
import { calls, count, dispatchSuite, op, t } from './dispatch.suite.js';

/** The /v1 dispatcher: query and path input, routing, problems for bad input, strict bodies. Conditional reads: dispatch-conditional.test.ts. */
const { app, inject, lastCall } = dispatchSuite();

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
