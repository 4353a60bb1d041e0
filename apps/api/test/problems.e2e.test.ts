import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeMarketplace, startHarness, type Harness } from './harness.js';

/**
 * Errors that happen before any procedure runs (parsing, routing, body limits) are problems too.
 * A probe route under /v1 takes JSON bodies, since the foundation's public endpoints are all GETs.
 */
let h: Harness;
let key: string;
const logged: string[] = [];
beforeAll(async () => {
  h = await startHarness({
    bodyLimit: 2048,
    extend: async (app) => {
      app.post('/v1/_probe/echo', async (req) => ({ body: req.body ?? null }));
      app.get('/v1/_probe/boom', async () => {
        throw new Error('secret internals: password=hunter2');
      });
    },
  });
  h.app.log.error = ((obj: { err?: Error }) => void logged.push(obj.err?.message ?? JSON.stringify(obj))) as never;
  ({ secret: key } = await makeMarketplace(h));
});
afterAll(() => h.close());

function expectProblem(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
  const body = res.json() as Record<string, unknown>;
  expect(body).toMatchObject({ status, code, type: `/docs/problems#${code}` });
  expect(Object.keys(body).sort()).toEqual(['code', 'detail', 'errors', 'status', 'title', 'type']);
  expect(typeof body.detail).toBe('string');
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/); // no stack traces on the wire
  return body;
}

describe('problems before procedures run', () => {
  test('bad JSON → 400', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/v1/_probe/echo', headers: { 'content-type': 'application/json' }, payload: '{"a": 1,' });
    const body = expectProblem(res, 400, 'malformed_request');
    expect(body.detail).toMatch(/not valid JSON/);
  });

  test('bad JSON on /trpc → 400 inside the tRPC envelope', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/trpc/marketplace.get', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, payload: '{' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.data.problem).toMatchObject({ status: 400, code: 'malformed_request' });
  });

  test('an empty JSON body is no input, not an error', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/v1/_probe/echo', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ body: null });
  });

  test('body over the limit → 413, at the limit accepted', async () => {
    const fits = JSON.stringify({ s: 'x'.repeat(2048 - 8) });
    expect(fits.length).toBe(2048);
    expect((await h.app.inject({ method: 'POST', url: '/v1/_probe/echo', headers: { 'content-type': 'application/json' }, payload: fits })).statusCode).toBe(200);
    const tooBig = JSON.stringify({ s: 'x'.repeat(2048 - 7) });
    expectProblem(await h.app.inject({ method: 'POST', url: '/v1/_probe/echo', headers: { 'content-type': 'application/json' }, payload: tooBig }), 413, 'payload_too_large');
  });

  test('wrong content type → 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await h.app.inject({ method: 'POST', url: '/v1/_probe/echo', headers: { 'content-type': type }, payload: 'a=1' });
      expectProblem(res, 415, 'unsupported_media_type');
    }
  });

  test('JSON is JSON whatever the case of its media type and with parameters (RFC 9110): no 415', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'Application/Json', 'application/merge-patch+json']) {
      const res = await h.app.inject({ method: 'POST', url: '/v1/sessions', headers: { 'content-type': type, authorization: `Bearer ${key}` }, payload: '{"email":"nobody@example.com","password":"wrong-password-1"}' });
      expectProblem(res, 401, 'invalid_credentials');
    }
  });

  test('JSON declared in another charset → 415 (JSON is UTF-8, RFC 8259), not read as UTF-8', async () => {
    for (const type of ['application/json; charset=latin1', 'application/json; charset="ISO-8859-1"', 'application/json;charset=utf-16']) {
      const res = await h.app.inject({ method: 'POST', url: '/v1/sessions', headers: { 'content-type': type, authorization: `Bearer ${key}` }, payload: '{"email":"nobody@example.com","password":"wrong-password-1"}' });
      expectProblem(res, 415, 'unsupported_media_type');
      expect(res.json().detail).toContain('UTF-8');
    }
  });

  test('a key sent twice in one object → 400 naming it, at any depth; equal keys in different objects are fine', async () => {
    const send = (payload: string) => h.app.inject({ method: 'POST', url: '/v1/sessions', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, payload });
    const twice = await send('{"email":"nobody@example.com","password":"a","password":"wrong-password-1"}');
    expectProblem(twice, 400, 'malformed_request');
    expect(twice.json().errors).toEqual([{ location: 'body.password', message: 'Duplicate key.', value: null }]);
    // the same key written with an escape is the same key
    expect((await send('{"email":"a@example.com","em\\u0061il":"b@example.com","password":"x"}')).json().errors[0].location).toBe('body.email');
    const nested = await send('{"email":"a@example.com","password":"x","x":[{"a":1},{"a":1,"b":{"c":1,"c":2}}]}');
    expectProblem(nested, 400, 'malformed_request');
    expect(nested.json().errors[0].location).toBe('body.x.1.b.c');
    // a key string inside a value, and keys repeated across sibling objects, are not duplicates
    expectProblem(await send('{"email":"nobody@example.com","password":"wrong-password-1"}'), 401, 'invalid_credentials');
  });

  test('unknown route → 404 problem, under /v1 and elsewhere', async () => {
    expectProblem(await h.request({ method: 'GET', url: '/v1/nope', key }), 404, 'not_found');
    expectProblem(await h.app.inject({ method: 'GET', url: '/nope' }), 404, 'not_found');
  });

  test('wrong method on a known route → 405 with Allow', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await h.request({ method, url: '/v1/marketplace', key, headers: { 'content-type': 'application/json' }, payload: '{}' });
      expectProblem(res, 405, 'method_not_allowed');
      expect(res.headers.allow).toBe('GET');
    }
  });

  test('HEAD on a GET operation: 204 without a body after the key check, the procedure not run (as trpc-to-openapi answered)', async () => {
    const res = await h.app.inject({ method: 'HEAD', url: '/v1/marketplace', headers: { authorization: `Bearer ${key}` } });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    expect((await h.app.inject({ method: 'HEAD', url: '/v1/marketplace' })).statusCode).toBe(401);
  });

  test('unexpected error → 500 with a generic detail; the cause is logged with the request id, not sent', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/_probe/boom' });
    const body = expectProblem(res, 500, 'internal_error');
    expect(JSON.stringify(body)).not.toContain('hunter2');
    expect(body.detail).toMatch(/Request-Id/);
    expect(res.headers['request-id']).toMatch(/^req_[0-9a-f]{32}$/);
    expect(logged.join('\n')).toContain('hunter2');
  });

  test('every response carries a Request-Id', async () => {
    const ok = await h.request({ method: 'GET', url: '/v1/marketplace', key });
    const bad = await h.request({ method: 'GET', url: '/v1/marketplace' });
    expect(ok.headers['request-id']).toMatch(/^req_/);
    expect(bad.headers['request-id']).toMatch(/^req_/);
    expect(ok.headers['request-id']).not.toBe(bad.headers['request-id']);
  });
});

describe('health', () => {
  test('/health and /ready (database reachable)', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    expect((await h.app.inject({ method: 'GET', url: '/ready' })).json()).toEqual({ status: 'ready', database: 'ok' });
  });
});
