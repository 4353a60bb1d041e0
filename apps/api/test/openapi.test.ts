import { EVENT_TYPES } from '@hm/domain/webhooks';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { requestBodyValidator } from './openapi-validator.js';

const require = createRequire(import.meta.url);
let h: Harness;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;
beforeAll(async () => {
  h = await startHarness();
  const res = await h.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = res.json();
});
afterAll(() => h.close());

/** The operations of the document, by path (a path item may also carry `servers`: the Stripe webhook, outside /v1). */
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const operations = (): [string, string, any][] => Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item as object).filter(([m]) => METHODS.has(m)).map(([m, op]) => [p, m, op] as [string, string, unknown]));
/** Called by Stripe with its signature: no API key (no 401), and nothing it sends is validated as fields (no 422). */
const WEBHOOKS = ['/webhooks/stripe', '/webhooks/stripe/connect'];
/** The verbs operationIds start with, so that generated SDK methods read alike. */
const SDK_VERBS = ['list', 'get', 'create', 'replace', 'update', 'delete', 'add', 'remove', 'publish', 'close', 'accept', 'counter', 'reorder', 'upload', 'quote', 'book', 'transition', 'start', 'send', 'sign', 'confirm', 'request', 'preview', 'subscribe', 'advance', 'dispute', 'refund', 'set', 'receive'];

describe('GET /v1/openapi.json', () => {
  test('is a valid OpenAPI 3.1 document (third-party validator)', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test('lints with zero errors and zero warnings under Redocly’s recommended rules', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hm-openapi-'));
    const file = path.join(dir, 'openapi.json');
    // The document names the deployment's own API_URL as its server; the harness runs as http://localhost:4000,
    // which `no-server-example.com` rightly flags for a published document: lint it as a public deployment serves it.
    writeFileSync(file, JSON.stringify(doc).replaceAll('http://localhost:4000', 'https://api.marketplace.test'));
    writeFileSync(path.join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
    const cli = require.resolve('@redocly/cli/bin/cli.js');
    const run = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--format=json'], { cwd: dir, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } }).catch(
      (e: { stdout: string; stderr: string }) => e,
    );
    const report = JSON.parse(run.stdout);
    const problems = report.problems.map((p: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  test('every operation has a summary, a description and an operationId that reads as an SDK method name', () => {
    const ids = new Set<string>();
    for (const [p, m, op] of operations()) {
      const where = `${m.toUpperCase()} ${p}`;
      expect(op.summary, where).toMatch(/^\S.{2,60}$/);
      expect(op.description?.length ?? 0, `${where} needs a description`).toBeGreaterThan(20);
      // verb + noun in camelCase: listListings, getListing, createOrder, listMyConversations
      expect(op.operationId, where).toMatch(new RegExp(`^(${SDK_VERBS.join('|')})([A-Z][a-z]+)+$`));
      expect(ids.has(op.operationId), `${where}: operationId ${op.operationId} is taken`).toBe(false);
      ids.add(op.operationId);
    }
    expect(doc.paths['/listings'].get.operationId).toBe('listListings');
    expect(doc.paths['/listings/{id}'].get.operationId).toBe('getListing');
    expect(doc.paths['/me/orders'].post.operationId).toBe('createOrder');
    expect(doc.paths['/me/conversations'].get.operationId).toBe('listMyConversations');
  });

  test('every JSON request body has an example, and the example is valid against its schema', async () => {
    for (const [p, m, op] of operations()) {
      const body = op.requestBody?.content?.['application/json'];
      if (!body) continue; // the photo upload's body is the image's bytes
      expect(body.example, `${m.toUpperCase()} ${p} needs requestExample in its procedure's meta`).toBeDefined();
      const validate = (await requestBodyValidator(h.app, m, p))!;
      expect(validate(body.example), `${m.toUpperCase()} ${p}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  test('documents every public endpoint with its security', () => {
    const ops = operations().map(([p, m]) => `${m.toUpperCase()} ${p}`);
    expect(ops.sort()).toEqual([
      'DELETE /me/favorites/{id}',
      'GET /listings',
      'GET /listings/{id}',
      'GET /me/favorites',
      'PUT /me/favorites/{id}',
      'DELETE /me/listings/{id}',
      'DELETE /me/listings/{id}/images/{image_id}',
      'DELETE /sessions/current',
      'GET /catalog-terms',
      'GET /catalog-terms/{kind}/{slug}',
      'GET /categories',
      'GET /events',
      'GET /locations',
      'GET /images/{id}/{file}',
      'GET /marketplace',
      'GET /media/{id}/{file}',
      'GET /pages',
      'GET /pages/{slug}',
      'GET /pages/{slug}/preview',
      'GET /me',
      'GET /me/listings',
      'GET /me/listings/{id}',
      'GET /me/conversations',
      'GET /me/conversations/{id}/messages',
      'POST /me/conversations',
      'POST /me/conversations/{id}/messages',
      'GET /me/orders',
      'GET /me/orders/{id}',
      'GET /me/orders/{id}/delivery-booking',
      'POST /me/orders',
      'POST /me/orders/quote',
      'POST /me/orders/{id}/transitions/{transition}',
      'PATCH /me/orders/{id}/delivery',
      'PUT /me/orders/{id}/delivery-booking',
      'GET /me/payouts',
      'POST /me/payouts/session',
      'GET /test-helpers/emails',
      'PATCH /me',
      'POST /email-verifications',
      'POST /me/listings',
      'POST /me/listings/{id}/close',
      'POST /me/listings/{id}/images',
      'POST /me/listings/{id}/offer/accept',
      'POST /me/listings/{id}/offer/counter',
      'POST /me/listings/{id}/publish',
      'POST /me/verification-email',
      'POST /newsletter/subscribers',
      'POST /password-resets',
      'POST /password-resets/confirm',
      'POST /sessions',
      'POST /sessions/email-link',
      'POST /sessions/from-link',
      'POST /test-helpers/payments/confirm',
      'POST /test-helpers/payments/dispute',
      'POST /test-helpers/payments/refund',
      'POST /test-helpers/payouts/account',
      'POST /test-helpers/timers/advance',
      'POST /users',
      'POST /webhooks/stripe',
      'POST /webhooks/stripe/connect',
      'PUT /me/listings/{id}',
      'PUT /me/listings/{id}/images/order',
    ].sort());
    expect(doc.paths['/me'].get.security).toEqual([{ secretKey: [], userSession: [] }]);
    expect(doc.paths['/users'].post.security).toEqual([{ secretKey: [] }]);
    expect(doc.paths['/test-helpers/emails'].get.security).toEqual([{ secretKey: [] }]);
    expect(doc.paths['/events'].get.security).toEqual([{ secretKey: [] }]);
    // the feed: one example per event type
    expect(Object.keys(doc.paths['/events'].get.responses['200'].content['application/json'].examples).sort()).toEqual([...EVENT_TYPES].sort());
    expect(doc.paths['/test-helpers/emails'].get.tags).toEqual(['Test helpers']);
    expect(doc.paths['/test-helpers/payments/confirm'].post.security).toEqual([{ secretKey: [] }]);
    expect(Object.keys(doc.paths['/test-helpers/payments/confirm'].post.responses)).toEqual(expect.arrayContaining(['200', '404', '409', '422', '503']));
    expect(Object.keys(doc.paths['/users'].post.responses)).toEqual(expect.arrayContaining(['201', '409', '422']));
    expect(Object.keys(doc.paths['/sessions'].post.responses)).toEqual(expect.arrayContaining(['201', '401', '403', '429']));
    expect(doc.paths['/sessions/email-link'].post.responses['202']).toEqual({ description: 'Accepted (no body)', headers: expect.any(Object) });
    expect(doc.paths['/password-resets/confirm'].post.responses['204'].content).toBeUndefined();
    expect(doc.paths['/newsletter/subscribers'].post.responses['202']).toEqual({ description: 'Accepted (no body)', headers: expect.any(Object) });
    expect(doc.paths['/newsletter/subscribers'].post.security).toEqual([{ secretKey: [] }, { publishableKey: [] }]);
    expect(doc.servers[0].url).toBe('http://localhost:4000/v1');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['publishableKey', 'secretKey', 'userSession']);
    expect(doc.paths['/marketplace'].get.security).toEqual([{ secretKey: [] }, { publishableKey: [] }]);
    expect(Object.keys(doc.paths['/me/orders'].post.responses)).toEqual(expect.arrayContaining(['201', '409', '422', '503']));
    expect(Object.keys(doc.paths['/me/orders/{id}/delivery-booking'].put.responses)).toEqual(expect.arrayContaining(['200', '403', '409', '422']));
    expect(Object.keys(doc.paths['/me/conversations'].post.responses)).toEqual(expect.arrayContaining(['201', '403', '404', '422']));
    expect(Object.keys(doc.paths['/me/conversations/{id}/messages'].post.responses)).toEqual(expect.arrayContaining(['201', '404', '422']));
    expect(doc.paths['/me/conversations/{id}/messages'].get.tags).toEqual(['Messages']);
  });

  test('every operation documents its errors as application/problem+json Problems', () => {
    for (const [p, m, op] of operations()) {
      const statuses = Object.keys(op.responses);
      expect(statuses, `${m} ${p}`).toEqual(expect.arrayContaining(p === '/images/{id}/{file}' || p === '/media/{id}/{file}' || WEBHOOKS.includes(p) ? ['404', '500'] : ['401', '404', '500']));
      expect(statuses.filter((x) => x.startsWith('2')), `${m} ${p}`).toHaveLength(1);
      if (p === '/images/{id}/{file}' || p === '/media/{id}/{file}') continue; // no key: no 401
      for (const s of statuses.filter((x) => Number(x) >= 400)) {
        expect(op.responses[s]!.$ref, `${m} ${p} ${s}`).toBe(`#/components/responses/Problem${s}`);
      }
    }
    expect(doc.components.responses.Problem422.content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
    expect(doc.components.schemas.Problem.required).toEqual(['type', 'title', 'status', 'detail', 'code', 'errors']);
  });

  test('every operation documents 422: malformed path ids, and unknown or NUL query parameters, which any operation refuses', () => {
    const missing: string[] = [];
    for (const [p, m, op] of operations()) {
      if (p === '/images/{id}/{file}' || p === '/media/{id}/{file}' || WEBHOOKS.includes(p)) continue; // a file URL: anything malformed is simply not found
      if (!op.responses['422']) missing.push(`${m.toUpperCase()} ${p}`);
    }
    expect(missing).toEqual([]);
  });

  test('every operation documents 400 (a URL that is not valid percent-encoding)', () => {
    for (const [p, m, op] of operations()) expect(op.responses['400'], `${m} ${p}`).toBeDefined();
  });

  test('X-Client-IP is an optional header of exactly the operations limited per client address', () => {
    const withIt = operations()
      .filter(([, , op]) => (op.parameters ?? []).some((x: { $ref?: string }) => x.$ref === '#/components/parameters/ClientIp'))
      .map(([, , op]) => op.operationId)
      .sort();
    expect(withIt).toEqual(['requestPasswordReset', 'sendSignInLink', 'signIn']);
    expect(doc.components.parameters.ClientIp).toMatchObject({ name: 'X-Client-IP', in: 'header', required: false });
    expect(doc.info.description).toContain('X-Client-IP');
  });

  test('query parameters carry their limits', () => {
    const params = doc.paths['/catalog-terms'].get.parameters as { name: string; required?: boolean; schema: Record<string, unknown> }[];
    const limit = params.find((x) => x.name === 'limit')!;
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
    expect(params.find((x) => x.name === 'kind')!.required).toBe(true);
    expect(params.find((x) => x.name === 'q')!.schema).toMatchObject({ maxLength: 200 });
  });
});

describe('/docs', () => {
  test('serves the reference page and its scripts from this server (no CDN)', async () => {
    const page = await h.app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-url="/v1/openapi.json"');
    const scripts = [...page.body.matchAll(/src="([^"]+)"/g)].map((m) => m[1]!);
    // Scalar's bundle, and the small script naming its icon-only buttons (axe button-name)
    expect(scripts).toEqual(['/docs/scalar.js', '/docs/a11y.js']);
    const js = await h.app.inject({ method: 'GET', url: '/docs/scalar.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.body.length).toBeGreaterThan(100_000);
    const a11y = await h.app.inject({ method: 'GET', url: '/docs/a11y.js' });
    expect(a11y.statusCode).toBe(200);
    expect(a11y.headers['content-type']).toMatch(/javascript/);
  });

  test('/favicon.ico answers with an icon, not a 404 (browsers ask every origin for it)', async () => {
    const icon = await h.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.body).toMatch(/^<svg /);
  });

  test('problem types resolve to a page with an anchor per code', async () => {
    const page = await h.app.inject({ method: 'GET', url: '/docs/problems' });
    expect(page.statusCode).toBe(200);
    for (const code of doc.components.schemas.Problem.properties.code.enum) expect(page.body).toContain(`id="${code}"`);
  });
});
