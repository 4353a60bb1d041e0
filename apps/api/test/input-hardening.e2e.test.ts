import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeSellingMarketplace, signUp, startHarness, type Harness } from './harness.js';

/**
 * Input that used to answer 500 (or be silently accepted): NUL characters, deep nesting, strings
 * where numbers belong, duplicate field errors. Every answer is a problem naming the field, and
 * every 500 that remains is logged with its request id.
 */
let h: Harness;
let m: Awaited<ReturnType<typeof makeSellingMarketplace>>;
let session: string;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  h = await startHarness({
    app: { logger: { level: 'error', stream: { write: (line: string) => void logLines.push(JSON.parse(line)) } } },
    // A fault the code cannot foresee: the database refuses one particular sign-up.
    extend: async (_app, orm) => {
      await orm.em.getConnection().execute(`
        create function hm_test_refuse() returns trigger language plpgsql as $$
        begin
          if new.email like 'boom%' then raise exception 'injected fault: secret internals'; end if;
          return new;
        end $$;
        create trigger hm_test_refuse before insert on users for each row execute function hm_test_refuse();`);
    },
  });
  m = await makeSellingMarketplace(h, 'inputs', { min_images: 1 });
  session = (await signUp(h, m.secret, { email: 'seller@example.com' })).token;
});
afterAll(() => h.close());

const json = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: string, headers: Record<string, string> = {}) =>
  h.request({ method, url, key: m.secret, session, headers: { 'content-type': 'application/json', ...headers }, payload });

function expectProblem(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, status: number, code: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  expect(res.headers['content-type']).toBe('application/problem+json');
  const body = res.json() as { code: string; errors: { location: string; message: string; value: unknown }[] };
  expect(body).toMatchObject({ status, code });
  return body;
}

describe('NUL characters', () => {
  test('in body strings and keys, at any depth → 422 naming each field', async () => {
    const res = await json('POST', '/v1/me/listings', JSON.stringify({ title: 'Lamp\u0000', description: 'ok', attributes: { 'co\u0000lor': 'red', list: ['a', 'b\u0000'] } }));
    const body = expectProblem(res, 422, 'validation_failed');
    expect(body.errors).toEqual([
      { location: 'body.title', message: 'Must not contain NUL characters (\\u0000).', value: 'Lamp\u0000' },
      { location: 'body.attributes.co\u0000lor', message: 'Must not contain NUL characters (\\u0000).', value: 'co\u0000lor' },
      { location: 'body.attributes.list.1', message: 'Must not contain NUL characters (\\u0000).', value: 'b\u0000' },
    ]);
  });

  test('a secret with a NUL is named but not echoed', async () => {
    const res = await h.request({ method: 'POST', url: '/v1/sessions', key: m.secret, payload: { email: 'seller@example.com', password: 'hunter2\u0000hunter2' } });
    expect(expectProblem(res, 422, 'validation_failed').errors).toEqual([{ location: 'body.password', message: 'Must not contain NUL characters (\\u0000).', value: null }]);
  });

  test('in query parameters (q, attr, to) → 422 naming the parameter', async () => {
    for (const [url, location] of [
      ['/v1/listings?q=lamp%00', 'query.q'],
      ['/v1/listings?attr=color:red&attr=size:%00', 'query.attr'],
      ['/v1/test-helpers/emails?to=a%00@example.com', 'query.to'],
      ['/v1/me/listings?cursor=%00', 'query.cursor'],
    ] as const) {
      const res = await h.request({ method: 'GET', url, key: m.secret, session });
      expect(expectProblem(res, 422, 'validation_failed').errors.map((e) => e.location), url).toEqual([location]);
    }
  });

  test('in a path parameter → 422 naming it', async () => {
    const res = await h.request({ method: 'GET', url: '/v1/catalog-terms/brand/art%00ek', key: m.secret });
    expect(expectProblem(res, 422, 'validation_failed').errors).toEqual([{ location: 'path.slug', message: 'Must not contain NUL characters (\\u0000).', value: 'art\u0000ek' }]);
  });

  test('on /trpc too, inside the tRPC envelope', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/trpc/users.signUp', headers: { authorization: `Bearer ${m.secret}`, 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'x\u0000@example.com' }) });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data.problem.errors[0].location).toBe('body.email');
    const query = await h.app.inject({ method: 'GET', url: `/trpc/listings.search?input=${encodeURIComponent(JSON.stringify({ q: 'a\u0000' }))}`, headers: { authorization: `Bearer ${m.secret}` } });
    expect(query.statusCode).toBe(422);
    expect(query.json().error.data.problem.errors[0].location).toBe('query.input.q');
  });
});

describe('lone UTF-16 surrogates', () => {
  const SURROGATE = 'Must be valid Unicode text (no lone surrogates).';

  test('in body strings and keys → 422 naming each field, as for NUL', async () => {
    const created = await json('POST', '/v1/me/listings', JSON.stringify({ title: 'Lamp' }));
    expect(created.statusCode, created.body).toBe(201);
    const res = await json('PUT', `/v1/me/listings/${created.json().id}`, '{"title":"Lamp","location":{"postal_code":"\\udfff"},"attributes":{"\\ud800x":"red"}}');
    expect(expectProblem(res, 422, 'validation_failed').errors).toEqual([
      { location: 'body.location.postal_code', message: SURROGATE, value: '\udfff' },
      { location: 'body.attributes.\ud800x', message: SURROGATE, value: '\ud800x' },
    ]);
    // a surrogate pair is text
    const pair = await json('PUT', `/v1/me/listings/${created.json().id}`, JSON.stringify({ title: 'Lamp \ud83d\udca1', location: { postal_code: '116 46' } }));
    expect(pair.statusCode, pair.body).toBe(200);
  });

  test('on /trpc too, in the body and in the input query parameter', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/trpc/users.signUp', headers: { authorization: `Bearer ${m.secret}`, 'content-type': 'application/json' }, payload: '{"email":"x\\udfff@example.com"}' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data.problem.errors).toEqual([{ location: 'body.email', message: SURROGATE, value: 'x\udfff@example.com' }]);
    const query = await h.app.inject({ method: 'GET', url: `/trpc/listings.search?input=${encodeURIComponent('{"q":"a\\ud800"}')}`, headers: { authorization: `Bearer ${m.secret}` } });
    expect(query.statusCode).toBe(422);
    expect(query.json().error.data.problem.errors[0].location).toBe('query.input.q');
  });
});

describe('bytes that are not UTF-8', () => {
  test('a JSON body with invalid UTF-8 → 400, never stored as replacement characters', async () => {
    const payload = Buffer.concat([Buffer.from('{"title":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"}')]);
    const res = await h.app.inject({ method: 'POST', url: '/v1/me/listings', headers: { authorization: `Bearer ${m.secret}`, 'x-user-session': session, 'content-type': 'application/json' }, payload });
    expect(expectProblem(res, 400, 'malformed_request')).toMatchObject({ detail: 'The body is not valid UTF-8 text.' });
    const utf8 = await json('POST', '/v1/me/listings', JSON.stringify({ title: 'Lampa från Göteborg' }));
    expect(utf8.statusCode, utf8.body).toBe(201);
    expect(utf8.json().title).toBe('Lampa från Göteborg');
  });
});

describe('a JSON body that is not an object', () => {
  test('[], "", true, null, 3 → 422 at the body, on operations whose fields are all optional', async () => {
    const listing = (await json('POST', '/v1/me/listings', JSON.stringify({ title: 'Lamp' }))).json().id as string;
    for (const [method, url] of [
      ['PATCH', '/v1/me'],
      ['PUT', `/v1/me/listings/${listing}`],
      ['POST', '/v1/me/listings'],
      ['POST', `/v1/me/listings/${listing}/publish`],
      ['POST', '/v1/me/verification-email'],
    ] as const) {
      for (const payload of ['[]', '""', 'true', 'null', '3']) {
        const body = expectProblem(await json(method, url, payload), 422, 'validation_failed');
        expect(body.errors, `${method} ${url} ${payload}`).toEqual([{ location: 'body', message: 'Must be a JSON object.', value: JSON.parse(payload) }]);
      }
    }
  });

  test('an absent or empty body is still no input', async () => {
    const empty = await json('POST', '/v1/me/listings', '');
    expect(empty.statusCode, empty.body).toBe(201);
    const none = await h.request({ method: 'POST', url: '/v1/me/listings', key: m.secret, session });
    expect(none.statusCode, none.body).toBe(201);
  });
});

describe('every problem listed when some text is not text', () => {
  test('a NUL in one body field and invalid others → all of them, each once', async () => {
    const res = await json('POST', '/v1/me/listings', JSON.stringify({ title: 'Lamp\u0000', stock: '2', price: { amount: -1, currency: 'SEK' }, description: 'ok\udfff' }));
    const body = expectProblem(res, 422, 'validation_failed');
    expect(body.errors.map((e) => `${e.location}: ${e.message}`).sort()).toEqual(
      ['body.description: Must be valid Unicode text (no lone surrogates).', 'body.price.amount: Must be at least 0.', 'body.stock: expected number, received string.', 'body.title: Must not contain NUL characters (\\u0000).'].sort(),
    );
  });

  test('a NUL in a query parameter and an invalid other one → both, at query locations', async () => {
    const res = await h.request({ method: 'GET', url: '/v1/listings?q=lamp%00&limit=five', key: m.secret });
    expect(expectProblem(res, 422, 'validation_failed').errors.map((e) => e.location)).toEqual(['query.q', 'query.limit']);
  });

  test('a NUL in a path parameter and an invalid body field → both', async () => {
    const res = await json('PUT', '/v1/me/listings/abc%00', JSON.stringify({ title: 'Lamp', stock: -1 }));
    const errors = expectProblem(res, 422, 'validation_failed').errors;
    expect(errors[0]).toEqual({ location: 'path.id', message: 'Must not contain NUL characters (\\u0000).', value: 'abc\u0000' });
    expect(errors.map((e) => e.location)).toEqual(['path.id', 'body.stock']);
  });
});

describe('nesting depth', () => {
  const deep = (levels: number) => `{"title":"Lamp","attributes":{"x":${'['.repeat(levels)}${']'.repeat(levels)}}}`;

  test('6 000 levels in a 12 KB body → 400 problem, on /v1 and /trpc', async () => {
    expect(deep(6000).length).toBeLessThan(12_100);
    const body = expectProblem(await json('POST', '/v1/me/listings', deep(6000)), 400, 'malformed_request');
    expect((body as unknown as { detail: string }).detail).toMatch(/nested deeper than 32/);
    const trpc = await h.app.inject({ method: 'POST', url: '/trpc/me.listings.create', headers: { authorization: `Bearer ${m.secret}`, 'x-user-session': session, 'content-type': 'application/json' }, payload: deep(6000) });
    expect(trpc.statusCode).toBe(400);
    expect(trpc.json().error.data.problem.code).toBe('malformed_request');
  });

  test('3 000 levels with an Idempotency-Key → 400, and the key stays unused', async () => {
    const idem = randomUUID();
    expectProblem(await json('POST', '/v1/me/listings', deep(3000), { 'idempotency-key': idem }), 400, 'malformed_request');
    const ok = await json('POST', '/v1/me/listings', JSON.stringify({ title: 'Lamp' }), { 'idempotency-key': idem });
    expect(ok.statusCode).toBe(201);
  });

  test('32 levels are fine; strings full of brackets are not nesting', async () => {
    const res = await json('POST', '/v1/me/listings', JSON.stringify({ title: '[[[[{{{{'.repeat(10), attributes: { x: JSON.parse(`${'['.repeat(30)}${']'.repeat(30)}`) } }));
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('types are strict in bodies, coerced in queries and paths only', () => {
  test('a string where a body number belongs → 422 at that field', async () => {
    const res = await json('POST', '/v1/me/listings', JSON.stringify({ title: 'Lamp', price: { amount: '100', currency: 'SEK' }, stock: '2' }));
    const body = expectProblem(res, 422, 'validation_failed');
    expect(body.errors.map((e) => e.location).sort()).toEqual(['body.price.amount', 'body.stock']);
  });

  test('a string where a body boolean belongs → 422', async () => {
    const res = await json('POST', '/v1/me/listings', JSON.stringify({ title: 'Lamp', delivery: { pickup: 'false' } }));
    expect(expectProblem(res, 422, 'validation_failed').errors.map((e) => e.location)).toEqual(['body.delivery.pickup']);
  });

  test('strict on /trpc too, even after the REST route has run', async () => {
    await h.request({ method: 'GET', url: '/v1/listings?limit=5', key: m.secret });
    const res = await h.app.inject({ method: 'POST', url: '/trpc/me.listings.create', headers: { authorization: `Bearer ${m.secret}`, 'x-user-session': session, 'content-type': 'application/json' }, payload: JSON.stringify({ title: 'Lamp', stock: '2' }) });
    expect(res.statusCode).toBe(422);
  });

  test('query numbers are still read from their text', async () => {
    const res = await h.request({ method: 'GET', url: '/v1/listings?limit=5&min_price=100', key: m.secret });
    expect(res.statusCode, res.body).toBe(200);
    expect(expectProblem(await h.request({ method: 'GET', url: '/v1/listings?limit=five', key: m.secret }), 422, 'validation_failed').errors[0]!.location).toBe('query.limit');
  });
});

describe('empty query values', () => {
  test('an empty value of an enum or a language tag is refused at query.<name> on every operation (GET /categories, /catalog-terms, /listings, /me/orders, /pages); other empty values are no value', async () => {
    const cases: [string, string[], string?][] = [
      ['/v1/categories?locale=', ['query.locale']],
      ['/v1/catalog-terms?kind=brand&locale=', ['query.locale']],
      ['/v1/listings?sort=', ['query.sort']],
      ['/v1/listings?sort=&seller=&q=', ['query.seller', 'query.sort']],
      ['/v1/me/orders?state=&as=', ['query.as', 'query.state'], session],
      ['/v1/pages/home?locale=', ['query.locale']],
    ];
    for (const [url, locations, user] of cases) {
      const res = await h.request({ method: 'GET', url, key: m.secret, session: user });
      expect(expectProblem(res, 422, 'validation_failed').errors.map((e) => e.location).sort(), url).toEqual(locations);
    }
    for (const url of ['/v1/categories?locale=sv', '/v1/listings?q=&limit=&min_price=&sort=newest', '/v1/categories']) {
      expect((await h.request({ method: 'GET', url, key: m.secret })).statusCode, url).toBe(200);
    }
  });
});

describe('field errors', () => {
  test('a 300-character email that is no address: one error, saying it is too long', async () => {
    const res = await h.request({ method: 'POST', url: '/v1/users', key: m.secret, payload: { email: 'a'.repeat(300) } });
    expect(expectProblem(res, 422, 'validation_failed').errors).toEqual([{ location: 'body.email', message: 'Must be at most 254 characters.', value: 'a'.repeat(300) }]);
    const long = await h.request({ method: 'POST', url: '/v1/users', key: m.secret, payload: { email: `${'a'.repeat(300)}@example.com` } });
    expect(expectProblem(long, 422, 'validation_failed').errors).toEqual([{ location: 'body.email', message: 'Must be at most 254 characters.', value: `${'a'.repeat(300)}@example.com` }]);
  });
});

describe('500s', () => {
  test('an unexpected failure in a procedure is a generic 500 problem, logged with the request id (REST and tRPC)', async () => {
    logLines.length = 0;
    const res = await h.request({ method: 'POST', url: '/v1/users', key: m.secret, payload: { email: 'boom@example.com' } });
    expectProblem(res, 500, 'internal_error');
    expect(res.body).not.toContain('injected');
    const trpc = await h.app.inject({ method: 'POST', url: '/trpc/users.signUp', headers: { authorization: `Bearer ${m.secret}`, 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'boom2@example.com' }) });
    expect(trpc.statusCode).toBe(500);
    for (const r of [res, trpc]) {
      const line = logLines.find((l) => l.reqId === r.headers['request-id']);
      expect(line, `a log line for ${r.headers['request-id']}: ${JSON.stringify(logLines)}`).toBeDefined();
      expect(line).toMatchObject({ level: 50 });
      expect(JSON.stringify(line)).toContain('injected fault');
    }
  });

  test('domain errors (4xx) are not logged as errors', async () => {
    logLines.length = 0;
    await h.request({ method: 'POST', url: '/v1/sessions', key: m.secret, payload: { email: 'seller@example.com', password: 'wrong-password' } });
    await h.app.inject({ method: 'POST', url: '/trpc/sessions.create', headers: { authorization: `Bearer ${m.secret}`, 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'seller@example.com', password: 'wrong-password' }) });
    expect(logLines).toEqual([]);
  });
});
