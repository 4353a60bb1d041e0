import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { strictResponses } from '../../src/openapi-responses.js';
import { emailsTo, signUp, tokenOf, type Harness } from '../harness.js';
import type { World } from '../fuzz/fixture.js';
import { baseDraft, type Draft, type FuzzContext, type Operation } from '../fuzz/operations.js';
import { rng } from '../fuzz/prng.js';
import { typeOf, type Json } from '../fuzz/schema-values.js';

export { runNewman, type BodyCheck, type ContractFailure } from './newman.js';

/**
 * Contract tests and fuzzing variations generated from the published document by third-party
 * tools: Portman turns /v1/openapi.json into a Postman collection — per operation a request with
 * tests of its success status, content type, JSON body, response schema and headers, and per
 * operation variations past the document's limits (required fields removed, minLength/maxLength,
 * minimum/maximum) that must be a documented 422 — and newman runs it against the started API.
 *
 * `portman-config.json` beside this file holds the tests; what a request needs to succeed (the
 * world's real ids in paths and bodies, the key, the session) is added here as Portman overwrites,
 * one per operation, made by the fuzz's own `baseDraft` from the document — so a new operation is
 * covered without anyone writing a case for it. Offline: Portman reads the document from a file.
 */

const CONFIG = path.join(import.meta.dirname, 'portman-config.json');
const require = createRequire(import.meta.url);
const PORTMAN = require.resolve('@apideck/portman/bin/portman');

/** What a request needs to reach its handler and succeed once: the draft's parts Portman overwrites. */
type Fix = (d: Draft) => void;

const body = (values: Record<string, Json>): Fix => (d) => void (d.body = { ...(d.body as Record<string, Json>), ...values });
const ids = (values: Record<string, string>): Fix => (d) => void Object.assign(d.pathValues, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, encodeURIComponent(v)])));

/**
 * Fresh targets for the operations that use something up (a draft deleted, a link used, a session
 * ended, an order moved), made after the fuzz has used the world's pools, and the few values a
 * single request must get right (the right password, a payment that succeeds).
 */
export async function contractFixes(h: Harness, w: World): Promise<Record<string, Fix>> {
  const call = async (method: 'POST' | 'GET', url: string, session?: string, payload?: object) => {
    const res = await h.request({ method, url, key: w.secret, session, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.body ? res.json() : undefined;
  };
  const newest = async (to: string, template: string) => tokenOf((await emailsTo(h, w.secret, to)).find((e) => e.template === template)?.links[0]);
  const leaving = await signUp(h, w.secret, { email: 'contract.leaving@example.com' });
  await signUp(h, w.secret, { email: 'contract.confirming@example.com' });
  // the fuzz tries wrong passwords for the world's user until rate-limited (429): sign in as another
  const signingIn = { email: 'contract.signing-in@example.com', password: 'a long enough password' };
  await signUp(h, w.secret, signingIn);
  await call('POST', '/v1/sessions/email-link', undefined, { email: w.alice.email });
  await call('POST', '/v1/password-resets', undefined, { email: 'contract.confirming@example.com' });
  const [signInLink, verification, reset] = [
    await newest(w.alice.email, 'sign_in_link'),
    await newest('contract.confirming@example.com', 'email_confirmation'),
    await newest('contract.confirming@example.com', 'password_reset'),
  ];
  const order = () => call('POST', '/v1/me/orders', w.alice.session, { listing_id: w.orders.listing, delivery: { method: 'pickup' } }) as Promise<{ order: { id: string }; payment: { client_secret: string } }>;
  const paid = async () => {
    const placed = await order();
    await call('POST', '/v1/test-helpers/payments/confirm', undefined, { client_secret: placed.payment.client_secret, outcome: 'succeeded' });
    return placed.order.id;
  };
  // placed 20 days ahead (as the world's orders), so the fuzz's `timers/advance` does not cancel them as never sent
  const now = h.clock.now();
  h.clock.advance(20 * 24 * 3600_000);
  const [received, disputed, refunded] = [await paid(), await paid(), await paid()];
  // an order the world's user sold and marked sent: its tracking can be added afterwards
  const tracked = await w.make.onSale('Contract: tracking added');
  const trackedBuyer = await signUp(h, w.secret, { email: 'contract.tracked@example.com' });
  const sold = (await call('POST', '/v1/me/orders', trackedBuyer.token, { listing_id: tracked, delivery: { method: 'pickup' } })) as { order: { id: string }; payment: { client_secret: string } };
  await call('POST', '/v1/test-helpers/payments/confirm', undefined, { client_secret: sold.payment.client_secret, outcome: 'succeeded' });
  const unpaid = (await order()).payment.client_secret;
  await h.runJobs();
  await h.runJobs();
  await call('POST', `/v1/me/orders/${sold.order.id}/transitions/mark-delivered`, w.alice.session, {});
  h.clock.set(now);
  const photoListing = await w.make.draft('Contract: photo deleted');
  const edited = await w.make.draft('Contract: replaced');
  const photo = await w.make.upload(photoListing);
  return {
    'POST /sessions': body(signingIn),
    'DELETE /sessions/current': (d) => void (d.headers['x-user-session'] = leaving.token),
    'POST /sessions/from-link': body({ token: signInLink }),
    // the fuzz has asked for emails to the world's addresses until rate-limited (429): a fresh one
    'POST /sessions/email-link': body({ email: 'contract.leaving@example.com' }),
    'POST /password-resets': body({ email: 'contract.leaving@example.com' }),
    'POST /email-verifications': body({ token: verification }),
    'POST /password-resets/confirm': body({ token: reset, password: 'a long enough password' }),
    // a seller does not set the shipping size (403); a listing on sale must stay complete (a draft may be anything valid)
    'POST /me/listings': (d) => void delete (d.body as Record<string, Json>).shipping_size,
    'PUT /me/listings/{id}': (d) => {
      delete (d.body as Record<string, Json>).shipping_size;
      ids({ id: edited })(d);
    },
    'POST /me/conversations': (d) => void (d.body = { listing_id: w.orders.listing, body: 'Is it still for sale?' }),
    // priced in the listing's own currency (the example's currency may have no rate in the world)
    'POST /me/orders/quote': (d) => void (d.body = { listing_id: w.orders.listing, quantity: 1, delivery: { method: 'pickup' } }),
    'DELETE /me/listings/{id}': ids({ id: await w.make.draft('Contract: deleted') }),
    'POST /me/listings/{id}/publish': ids({ id: await w.make.draft('Contract: published') }),
    'POST /me/listings/{id}/close': ids({ id: await w.make.onSale('Contract: closed') }),
    'POST /me/listings/{id}/offer/accept': ids({ id: await w.make.offered('Contract: offer accepted') }),
    'POST /me/listings/{id}/offer/counter': ids({ id: await w.make.offered('Contract: offer countered') }),
    'DELETE /me/listings/{id}/images/{image_id}': ids({ id: photoListing, image_id: photo }),
    // the fuzz fills the world's upload target to its 20 photos
    'POST /me/listings/{id}/images': ids({ id: await w.make.draft('Contract: photo uploaded') }),
    'POST /me/orders/{id}/transitions/{transition}': ids({ id: received, transition: 'mark-received-early' }),
    'PATCH /me/orders/{id}/delivery': ids({ id: sold.order.id }),
    'POST /test-helpers/payments/confirm': body({ client_secret: unpaid, outcome: 'succeeded' }),
    'POST /test-helpers/payments/dispute': body({ order_id: disputed }),
    // an amount the order surely has (the example's may be more than it was paid)
    'POST /test-helpers/payments/refund': body({ order_id: refunded, amount: 1000 }),
  };
}

/**
 * The document Portman reads, with the draft's JSON body and required query values as the
 * operations' examples: Portman builds each request from the examples and fuzzes those (an overwrite
 * would be applied after the fuzzing and undo it). The Stripe webhook is kept, on its own server.
 */
export function documentWithExamples(doc: Json, drafts: [Operation, Draft][]): Json {
  const copy = structuredClone(doc) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  for (const [op, d] of drafts) {
    const raw = copy.paths[op.template][op.method.toLowerCase()];
    const json = raw.requestBody?.content?.['application/json'];
    if (json && d.body !== undefined) {
      delete json.examples;
      json.example = d.body;
    }
    raw.parameters = op.params.map((p) => {
      const sent = d.query.find(([k]) => k === p.name);
      return p.in === 'query' && sent ? { ...p, example: decodeURIComponent(sent[1] ?? '') } : p;
    });
  }
  return copy as Json;
}

/** What the examples cannot say: the world's ids in the path, the key, the session, an Idempotency-Key. */
function overwriteOf(op: Operation, d: Draft): Json {
  const headers = Object.entries(d.headers).filter(([k]) => k !== 'authorization' && k !== 'content-type');
  const bearer = d.headers.authorization ? String(d.headers.authorization).replace(/^Bearer /, '') : undefined;
  return {
    openApiOperation: `${op.method}::${op.template}`,
    overwriteRequestPathVariables: Object.entries(d.pathValues).map(([key, value]) => ({ key, value: decodeURIComponent(value) })),
    overwriteRequestHeaders: headers.map(([key, value]) => ({ key, value: String(value) })),
    overwriteRequestSecurity: bearer ? { bearer: { token: bearer } } : { remove: true },
  } as unknown as Json;
}

export interface Collection {
  item: CollectionItem[];
}
interface CollectionItem {
  name: string;
  item?: CollectionItem[];
  request?: { method: string; url: { path?: string[] }; body?: Record<string, unknown>; header?: { key: string; value: string }[] };
}

/**
 * The Postman collection Portman makes from the document and the committed config plus the
 * overwrites (Portman is run as its command, in a folder of its own: it writes working files
 * under the current directory).
 */
export async function portmanCollection(doc: Json, overwrites: Json[], variations: Json[] = []): Promise<{ collection: Collection; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hm-portman-'));
  const config = JSON.parse(readFileSync(CONFIG, 'utf8')) as { tests: { variationTests: Json[] }; overwrites?: Json[] };
  // responses checked against the closed variant: a field the document does not declare fails the schema check
  writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(strictResponses(doc as object)));
  const tests = { ...config.tests, variationTests: [...config.tests.variationTests, ...variations] };
  writeFileSync(path.join(dir, 'portman-config.json'), JSON.stringify({ ...config, tests, overwrites: [...(config.overwrites ?? []), ...overwrites] }));
  const args = [PORTMAN, '--local', 'openapi.json', '--portmanConfigFile', 'portman-config.json', '--output', 'collection.json', '--runNewman', 'false', '--syncPostman', 'false'];
  try {
    await promisify(execFile)(process.execPath, args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    throw new Error(`portman failed: ${(e as { stdout?: string }).stdout ?? ''}${(e as Error).message}`, { cause: e });
  }
  return { collection: JSON.parse(readFileSync(path.join(dir, 'collection.json'), 'utf8')) as Collection, dir };
}

/** The checks of a variation that must be refused: a documented 422 problem. */
const REFUSED: Json[] = [
  { openApiOperation: '*::/*', statusCode: { enabled: true, code: 422 } },
  { openApiOperation: '*::/*', contentType: { enabled: true } },
  { openApiOperation: '*::/*', jsonBody: { enabled: true } },
  { openApiOperation: '*::/*', schemaValidation: { enabled: true } },
];

/**
 * What Portman's fuzzing does not do, as variations of its own made from the document: a
 * top-level body field of another JSON type, a body field and a query parameter outside their enum.
 * Each must be a documented 422.
 */
export function wrongTypeVariations(ops: Operation[]): Json[] {
  return ops.flatMap((op) => {
    const variations: Json[] = [];
    const fields = Object.entries(op.body?.schema?.properties ?? {}).filter(([, f]) => typeOf(f) !== 'any' && !(Array.isArray(f.type) && f.type.includes('null')));
    if (fields.length) {
      const [name, schema] = fields[0]!;
      const wrong = typeOf(schema) === 'string' ? 12345 : 'fuzz';
      variations.push({ name: `wrong type ${name}`, overwrites: [{ overwriteRequestBody: [{ key: name, value: wrong, overwrite: true }] }], tests: { contractTests: REFUSED } });
    }
    const enumField = Object.entries(op.body?.schema?.properties ?? {}).find(([, f]) => f.enum?.length);
    if (enumField) variations.push({ name: `wrong enum ${enumField[0]}`, overwrites: [{ overwriteRequestBody: [{ key: enumField[0], value: 'not-in-the-enum', overwrite: true }] }], tests: { contractTests: REFUSED } });
    const enumParam = op.params.find((p) => p.in === 'query' && p.schema.enum?.length);
    if (enumParam) variations.push({ name: `wrong enum ${enumParam.name}`, overwrites: [{ overwriteRequestQueryParams: [{ key: enumParam.name, value: 'not-in-the-enum', overwrite: true, disable: false }] }], tests: { contractTests: REFUSED } });
    return variations.length ? [{ openApiOperation: `${op.method}::${op.template}`, openApiResponse: '422', variations }] : [];
  }) as Json[];
}

/** Every item of the collection (folders flattened). */
export function requestsOf(c: { item?: CollectionItem[] }): CollectionItem[] {
  return (c.item ?? []).flatMap((i) => (i.item ? requestsOf(i) : [i]));
}

/**
 * The generated collection for the world: one draft per operation that the world makes succeed
 * (fixed seed: the same requests every run; required query parameters only, so a cursor never
 * meets another query), the photo upload sending the world's JPEG as its bytes.
 */
export async function contractCollection(doc: Json, world: World, ops: Operation[], fixes: Record<string, Fix>, seed: number): Promise<Collection> {
  const ctx: FuzzContext = { r: rng(seed), world, seq: { n: 200_000 } };
  const drafts = ops.map((op): [Operation, Draft] => {
    const d = baseDraft(ctx, op);
    d.query = d.query.filter(([k]) => op.params.some((p) => p.in === 'query' && p.name === k && p.required));
    if (op.template === '/users') (d.body as Record<string, Json>).email = `contract.${seed}@example.com`;
    fixes[op.id]?.(d);
    return [op, d];
  });
  const { collection, dir } = await portmanCollection(
    documentWithExamples(doc, drafts),
    drafts.map(([op, d]) => overwriteOf(op, d)),
    wrongTypeVariations(ops),
  );
  const photo = path.join(dir, 'photo.jpg');
  writeFileSync(photo, world.photo);
  for (const item of requestsOf(collection)) {
    if (item.request?.url.path?.at(-1) === 'images' && item.request.method === 'POST') item.request.body = { mode: 'file', file: { src: photo } };
  }
  return collection;
}
