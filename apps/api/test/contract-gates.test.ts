import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { generate, type JsonSchema } from 'json-schema-faker';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { appRouter } from '@hm/contract/router';
import { buildOpenApiDocument } from '../src/openapi.js';
import { strictResponses } from '../src/openapi-responses.js';
import { portmanCollection, runNewman } from './contract/portman.js';
import { checkResponse, type ErrorLog } from './fuzz/check.js';
import type { World } from './fuzz/fixture.js';
import { operationsOf, type Operation, type Req } from './fuzz/operations.js';
import { runProperty } from './fuzz/property.js';
import { send } from './fuzz/transport.js';
import { requestBodyValidator } from './openapi-validator.js';

/**
 * The gates themselves: an app that serves the real OpenAPI document but whose routes are broken
 * on purpose — GET /marketplace answers a valid marketplace plus an undocumented field, GET
 * /categories a 500, GET /locations a validation problem that names no location — must fail the
 * fuzz's response check, the fast-check property and the Portman/newman contract run. No
 * database: the broken routes are this test's own.
 */
type Json = Record<string, unknown>;
let app: FastifyInstance;
let origin: string;
let doc: Json;
let ops: Operation[];
const errorLog: ErrorLog = new Map();
const BROKEN = ['GET /marketplace', 'GET /categories', 'GET /locations'];

beforeAll(async () => {
  doc = buildOpenApiDocument(appRouter, { serverUrl: 'http://localhost:4000', version: '1' }) as Json;
  // the published document lets responses grow (versioning); the gates check against its closed variant
  expect((doc.components as { schemas: Record<string, Json> }).schemas.Marketplace!.additionalProperties).toBeUndefined();
  const schemas = (strictResponses(doc).components as { schemas: Record<string, JsonSchema> }).schemas;
  // a marketplace the document accepts, made from its schema, with one field it does not declare
  const marketplace = (await generate({ $ref: '#/components/schemas/Marketplace' }, { seed: 1, maxLength: 20, refResolver: (ref) => schemas[ref.split('/').pop()!]! })) as Json;
  app = Fastify();
  app.get('/v1/openapi.json', async () => doc);
  app.get('/v1/marketplace', async () => ({ ...marketplace, internal_note: 'not in the document' }));
  app.get('/v1/categories', async (_req, reply) => reply.code(500).type('text/plain').send('TypeError: undefined is not a function'));
  app.get('/v1/locations', async (_req, reply) =>
    reply.code(422).type('application/problem+json').send({ type: '/docs/problems#validation_failed', title: 'Invalid request', status: 422, detail: 'Something is wrong.', code: 'validation_failed', errors: [] }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  ops = operationsOf(doc as never).filter((op) => BROKEN.includes(op.id));
  expect(ops.map((op) => op.id).sort()).toEqual([...BROKEN].sort());
});
afterAll(() => app?.close());

/** A world with keys and a session only: the broken routes look at nothing. */
const world = { secret: 'sk_test_gate', publishable: 'pk_test_gate', alice: { session: 'gate-session' }, spareSessions: [], endedSession: 'ended' } as unknown as World;
const port = () => Number(new URL(origin).port);

test('the response check refuses an undocumented field, a 500, and a validation problem without locations', async () => {
  const check = async (url: string) => {
    const req: Req = { method: 'GET', url, headers: { authorization: 'Bearer sk_test_gate' } };
    return checkResponse(app, ops.find((op) => `/v1${op.template}` === url), req, await send(app, port(), req), errorLog);
  };
  const field = await check('/v1/marketplace');
  expect(field?.kind).toBe('not-in-openapi');
  expect(field?.what).toMatch(/additional properties/);
  expect((await check('/v1/categories'))?.kind).toBe('5xx');
  expect(await check('/v1/locations')).toEqual({ kind: 'problem-members', what: 'validation_failed without errors' });
});

test('the fast-check property fails on them, with a shrunk counterexample and the path that replays it', async () => {
  const result = await runProperty({ app, port: port(), world, ops, runs: 50, seed: 7, errorLog });
  expect(result.failure, 'the property passed against broken routes').toBeDefined();
  expect(BROKEN).toContain(result.failure!.failure.c.op);
  expect(result.failure!.report).toMatch(/Counterexample: /);
  expect(result.failure!.report).toMatch(/replay: FUZZ_SEED=7 FUZZ_PROPERTY_PATH=\S+/);
  // the path replays the same failure
  const path = /FUZZ_PROPERTY_PATH=(\S+)/.exec(result.failure!.report)![1]!;
  const replay = await runProperty({ app, port: port(), world, ops, runs: 50, seed: 7, path, errorLog });
  expect(replay.failure?.failure.kind).toBe(result.failure!.failure.kind);
  expect(replay.failure?.failure.c.op).toBe(result.failure!.failure.c.op);
});

test('the Portman contract run fails on them: the schema of the marketplace, the success of the others', async () => {
  const only = { ...doc, paths: Object.fromEntries(Object.entries(doc.paths as Json).filter(([p]) => ['/marketplace', '/categories', '/locations'].includes(p))) };
  const { collection } = await portmanCollection(only as never, []);
  const run = await runNewman(collection, origin, async (method, template, body) => {
    const validate = await requestBodyValidator(app, method, template);
    return validate ? Boolean(validate(body)) : undefined;
  });
  const failed = (path: string, assertion: RegExp, message = /./) => run.failures.some((f) => f.request.endsWith(`: GET ${path}`) && assertion.test(f.assertion) && message.test(f.message));
  expect(failed('/marketplace', /Schema is valid/, /additional properties/), JSON.stringify(run.failures, null, 1)).toBe(true);
  expect(failed('/categories', /Status code is 2xx/)).toBe(true);
  expect(failed('/locations', /Status code is 2xx/)).toBe(true);
}, 120_000);
