import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { requestBodyValidator } from './openapi-validator.js';

/**
 * The back office's own document (/console/v1/openapi.json) to the standard of /v1's
 * (openapi.test.ts): a valid OpenAPI 3.1 document, every operation with a summary and a
 * description, every JSON request body with an example its schema accepts.
 */
let h: Harness;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;
beforeAll(async () => {
  h = await startHarness();
  doc = (await h.app.inject({ method: 'GET', url: '/console/v1/openapi.json' })).json();
});
afterAll(() => h.close());

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const operations = (): [string, string, any][] => Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item as object).filter(([m]) => METHODS.has(m)).map(([m, op]) => [p, m, op] as [string, string, unknown]));

test('is a valid OpenAPI 3.1 document (third-party validator)', async () => {
  expect(doc.openapi).toMatch(/^3\.1\./);
  const result = await new Validator().validate(doc);
  expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
});

test('every operation has a summary, a description and a unique operationId', () => {
  const ids = new Set<string>();
  const missing: string[] = [];
  for (const [p, m, op] of operations()) {
    const where = `${m.toUpperCase()} ${p}`;
    if (!/^\S.{2,60}$/.test(op.summary ?? '')) missing.push(`${where}: summary`);
    if ((op.description?.length ?? 0) <= 20) missing.push(`${where}: description`);
    expect(ids.has(op.operationId), `${where}: operationId ${op.operationId} is taken`).toBe(false);
    ids.add(op.operationId);
  }
  expect(missing).toEqual([]);
});

test('every JSON request body has an example, and the example is valid against its schema', async () => {
  const problems: string[] = [];
  for (const [p, m, op] of operations()) {
    const body = op.requestBody?.content?.['application/json'];
    if (!body) continue; // the media upload's body is the image's bytes
    if (body.example === undefined) {
      problems.push(`${m.toUpperCase()} ${p} needs requestExample in its procedure's meta`);
      continue;
    }
    const validate = (await requestBodyValidator(h.app, m, p, '/console/v1'))!;
    if (!validate(body.example)) problems.push(`${m.toUpperCase()} ${p}: ${JSON.stringify(validate.errors)}`);
  }
  expect(problems).toEqual([]);
});

test('the operations the back-office app needs are documented (REST nouns, POST …/{id}/verb for actions)', () => {
  const ops = operations().map(([p, m]) => `${m.toUpperCase()} ${p}`);
  expect(ops).toEqual(
    expect.arrayContaining([
      'PUT /listings/{id}/shipping-size',
      'PUT /listings/{id}/commission',
      'PUT /listings/{id}/custody',
      'POST /listings/{id}/offer',
      'POST /users',
      'GET /vouchers',
      'POST /vouchers',
      'GET /rates',
      'POST /rates',
      'GET /pages',
      'GET /pages/{slug}/{locale}',
      'PUT /pages/{slug}/{locale}',
      'POST /pages/{slug}/{locale}/publish',
      'POST /pages/{slug}/{locale}/unpublish',
      'POST /pages/{slug}/{locale}/preview-link',
      'GET /media',
      'POST /media',
      'GET /newsletter/subscribers.csv',
      'GET /payouts/reconciliation',
      'GET /payouts/failed',
      'POST /orders/{id}/payout/retry',
      'PATCH /operators/{id}',
      'DELETE /operators/{id}',
      'GET /sites',
    ]),
  );
  expect(Object.keys(doc.paths['/newsletter/subscribers.csv'].get.responses['200'].content)).toEqual(['text/csv']);
});

test('a listing of the team names its seller: id, display name and email, documented on the list, the listing and its changes', () => {
  expect(doc.components.schemas.ListingSeller).toMatchObject({ type: 'object', required: ['id', 'display_name', 'email'] });
  expect(doc.components.schemas.ConsoleListing.properties.seller).toEqual({ $ref: '#/components/schemas/ListingSeller' });
  const item = (p: string, m: string) => doc.paths[p][m].responses['200'].content['application/json'].schema;
  expect(item('/listings', 'get').properties.items.items).toEqual({ $ref: '#/components/schemas/ConsoleListing' });
  for (const p of ['/listings/{id}', '/listings/{id}/approve', '/listings/{id}/custody']) expect(item(p, p === '/listings/{id}' ? 'get' : p.endsWith('custody') ? 'put' : 'post').properties.listing).toEqual({ $ref: '#/components/schemas/ConsoleListing' });
  expect(item('/sites', 'get')).toEqual({ $ref: '#/components/schemas/SiteList' });
});
