import { tmpdir } from 'node:os';
import { localPorts } from '@hm/domain/ports';
import { z } from 'zod';
import { TRPCError } from '@trpc/server';
import { expect, test } from 'vitest';
import type { Marketplace } from '@hm/db/entities';
import type { Context } from '@hm/domain/core';
import { DomainError, ValidationError } from '@hm/domain/core';
import { HttpError } from './problems.js';
import { createCallerFactory, keyProcedure, router, toProblem } from './trpc.js';

const marketplace = { id: '00000000-0000-7000-8000-000000000000', locales: ['en'], termKinds: [] } as unknown as Marketplace;
const probe = router({
  publicData: keyProcedure.meta({ auth: 'key' }).input(z.object({})).query(() => 'ok'),
  secretOnly: keyProcedure.meta({ auth: 'secret' }).input(z.object({})).query(() => 'ok'),
});

function ctx(auth: Context['auth']): Context {
  // reads run in one transaction of the request's entity manager: here begin, commit and rollback do nothing
  const fork = () => ({ setFilterParams: () => {}, setSessionContext: () => {}, begin: async () => {}, commit: async () => {}, rollback: async () => {} });
  const orm = { em: { fork }, fork } as unknown as Context['orm'];
  return { ...localPorts({ dataDir: tmpdir(), mode: 'test' }), orm, mode: 'test', transport: 'trpc', requestId: 'r', auth, sessionToken: undefined, publicUrl: 'http://localhost:4000' };
}

test('publishable keys read public data; secret-only procedures answer 403', async () => {
  const publishable = createCallerFactory(probe)(ctx({ apiKeyId: 'k', kind: 'publishable', marketplace }));
  expect(await publishable.publicData({})).toBe('ok');
  const err = await publishable.secretOnly({}).catch((e: TRPCError) => e);
  expect(toProblem(err as TRPCError, undefined, undefined)).toMatchObject({ status: 403, code: 'publishable_key_not_allowed' });
  const secret = createCallerFactory(probe)(ctx({ apiKeyId: 'k', kind: 'secret', marketplace }));
  expect(await secret.secretOnly({})).toBe('ok');
});

test('no key, or a key that failed, never reaches a procedure', async () => {
  const none = await createCallerFactory(probe)(ctx(undefined)).publicData({}).catch((e: TRPCError) => e);
  expect(toProblem(none as TRPCError, undefined, undefined)).toMatchObject({ status: 401, code: 'api_key_required' });
  const failed = await createCallerFactory(probe)(ctx(new DomainError('invalid_api_key', 'nope'))).publicData({}).catch((e: TRPCError) => e);
  expect(toProblem(failed as TRPCError, undefined, undefined)).toMatchObject({ status: 401, code: 'invalid_api_key', detail: 'nope' });
});

test('unexpected errors become a generic 500 problem', () => {
  const p = toProblem(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: new Error('db password=x') }), undefined, undefined);
  expect(p).toMatchObject({ status: 500, code: 'internal_error', errors: [] });
  expect(p.detail).not.toContain('password');
});

test('domain errors carry plain field paths; the transport says where each was sent, and a detail naming the field follows', () => {
  const post = { auth: 'session', openapi: { method: 'POST', path: '/me/listings/{id}/publish' } } as const;
  const get = { auth: 'key', openapi: { method: 'GET', path: '/listings' } } as const;
  const one = new ValidationError([{ location: 'price.amount', message: 'Too low.', value: 1 }]);
  expect(toProblem(one, post, undefined)).toMatchObject({ detail: 'body.price.amount: Too low.', errors: [{ location: 'body.price.amount', message: 'Too low.', value: 1 }] });
  expect(toProblem(one, get, undefined)).toMatchObject({ detail: 'query.price.amount: Too low.', errors: [{ location: 'query.price.amount' }] });
  const id = new ValidationError([{ location: 'id', message: 'Nope.', value: 'x' }]);
  expect(toProblem(id, post, undefined).errors[0]!.location).toBe('path.id');
  const whole = new ValidationError([{ location: '', message: 'Too big.', value: null }]);
  expect(toProblem(whole, post, undefined)).toMatchObject({ detail: 'body: Too big.', errors: [{ location: 'body' }] });
  const custom = new DomainError('link_used', 'This link was used already.', { errors: [{ location: 'token', message: 'This link was used already.', value: null }] });
  expect(toProblem(custom, post, undefined)).toMatchObject({ detail: 'This link was used already.', errors: [{ location: 'body.token' }] });
  // the members keep their order on the wire
  expect(Object.keys(toProblem(one, post, undefined))).toEqual(['type', 'title', 'status', 'detail', 'code', 'errors']);
  const many = new ValidationError([
    { location: 'title', message: 'Required.', value: null },
    { location: 'terms.brand', message: 'Required.', value: null },
  ]);
  expect(toProblem(many, post, undefined)).toMatchObject({ detail: 'The request has 2 problems; see errors.', errors: [{ location: 'body.title' }, { location: 'body.terms.brand' }] });
});

test('zod errors are located the same way: path parameters, query (GET) or body, the input as a whole at body', async () => {
  const schema = z.strictObject({ id: z.uuid(), n: z.number() });
  const err = (value: unknown) => {
    const parsed = schema.safeParse(value);
    return new TRPCError({ code: 'BAD_REQUEST', cause: parsed.error });
  };
  const post = { auth: 'secret', openapi: { method: 'POST', path: '/things/{id}' } } as const;
  expect(toProblem(err({ id: 'x', n: 1 }), post, { id: 'x', n: 1 })).toMatchObject({ detail: 'path.id: Invalid UUID.', errors: [{ location: 'path.id', value: 'x' }] });
  expect(toProblem(err({ id: 'x', n: 'y' }), { auth: 'secret', openapi: { method: 'GET', path: '/things' } }, { id: 'x', n: 'y' }).errors.map((e) => e.location)).toEqual(['query.id', 'query.n']);
  expect(toProblem(err('nope'), post, 'nope').errors.map((e) => e.location)).toEqual(['body']);
});

test('a database that cannot be reached is a 503 with Retry-After in every procedure, not a 500', async () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  const down = router({
    read: keyProcedure.meta({ auth: 'key' }).input(z.object({})).query(() => Promise.reject(refused)),
    bug: keyProcedure.meta({ auth: 'key' }).input(z.object({})).query(() => Promise.reject(new TypeError('x is undefined'))),
  });
  const caller = createCallerFactory(down)(ctx({ apiKeyId: 'k', kind: 'secret', marketplace }));
  const err = (await caller.read({}).catch((e: TRPCError) => e)) as TRPCError;
  expect(err.code).toBe('SERVICE_UNAVAILABLE');
  expect((err.cause as HttpError).headers).toEqual({ 'Retry-After': '5' }); // sent by both transports' responseMeta
  expect(toProblem(err, undefined, undefined)).toMatchObject({ status: 503, code: 'service_unavailable' });
  // the same error reaching toProblem unwrapped (console start-up) maps the same way
  expect(toProblem(refused, undefined, undefined)).toMatchObject({ status: 503, code: 'service_unavailable' });
  const bug = (await caller.bug({}).catch((e: TRPCError) => e)) as TRPCError;
  expect(toProblem(bug, undefined, undefined)).toMatchObject({ status: 500, code: 'internal_error' });
});
