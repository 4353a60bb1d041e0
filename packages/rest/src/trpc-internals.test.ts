import { createRequire } from 'node:module';
import { initTRPC, TRPCError } from '@trpc/server';
import { z } from 'zod';
import { expect, test } from 'vitest';
import { callProcedure, errorOf, errorShape, proceduresOf } from './trpc-internals.js';

/**
 * What the dispatcher relies on in tRPC, pinned: when an upgrade changes any of it, this fails
 * naming the installed version, and trpc-internals.ts is the one file to adapt.
 */
const version = (createRequire(import.meta.url)('@trpc/server/package.json') as { version: string }).version;
const pinned = (what: string) => `tRPC ${version} changed what @hm/rest relies on (packages/rest/src/trpc-internals.ts): ${what}`;

const t = initTRPC
  .context<{ user: string }>()
  .meta<{ openapi?: { method: string; path: string } }>()
  .create({ errorFormatter: ({ shape, input, ctx, path, type }) => ({ ...shape, data: { ...shape.data, seen: { input, ctx, path, type } } }) });
const router = t.router({
  outer: t.router({
    get: t.procedure
      .meta({ openapi: { method: 'GET', path: '/x/{id}' } })
      .input(z.object({ id: z.string() }))
      .use(({ ctx, next }) => next({ ctx: { ...ctx, via: 'middleware' } }))
      .query(({ input, ctx }) => ({ input, ctx })),
  }),
  make: t.procedure.input(z.object({ n: z.number() })).mutation(({ input }) => input.n * 2),
});

test(`the router's procedures: a flat record by dotted path, each with _def.type, _def.inputs and _def.meta (tRPC ${version})`, () => {
  const procedures = proceduresOf(router);
  expect(Object.keys(procedures).sort(), pinned('router._def.procedures is no longer a flat record by dotted path')).toEqual(['make', 'outer.get']);
  const get = procedures['outer.get']!._def;
  expect(get.type, pinned('procedure._def.type')).toBe('query');
  expect(get.meta, pinned('procedure._def.meta')).toEqual({ openapi: { method: 'GET', path: '/x/{id}' } });
  expect(get.inputs.length === 1 && get.inputs[0] instanceof z.ZodObject, pinned('procedure._def.inputs holds the .input() parsers')).toBe(true);
  expect(typeof router._def._config.errorFormatter, pinned('router._def._config.errorFormatter')).toBe('function');
});

test(`callTRPCProcedure runs middlewares, input parsing and the resolver with the context given (tRPC ${version})`, async () => {
  expect(await callProcedure(router, 'outer.get', 'query', { id: 'a' }, { user: 'ann' }), pinned('callTRPCProcedure')).toEqual({ input: { id: 'a' }, ctx: { user: 'ann', via: 'middleware' } });
  expect(await callProcedure(router, 'make', 'mutation', { n: 21 }, { user: 'ann' }), pinned('callTRPCProcedure (mutation)')).toBe(42);
  const refused = await callProcedure(router, 'make', 'mutation', { n: 'x' }, { user: 'ann' }).catch((e: unknown) => e);
  expect(refused instanceof TRPCError && refused.code === 'BAD_REQUEST' && refused.cause instanceof z.ZodError, pinned('an invalid input is a BAD_REQUEST TRPCError caused by the ZodError')).toBe(true);
});

test(`getTRPCErrorShape hands the router's error formatter the error, input, context, path and type (tRPC ${version})`, () => {
  const error = new TRPCError({ code: 'NOT_FOUND', message: 'nope' });
  const shape = errorShape(router, error, 'outer.get', 'query', { id: 'a' }, { user: 'ann' }) as { message: string; data: { code: string; seen: unknown } };
  expect(shape.message, pinned('getTRPCErrorShape message')).toBe('nope');
  expect(shape.data.code, pinned('getTRPCErrorShape data.code')).toBe('NOT_FOUND');
  expect(shape.data.seen, pinned('getTRPCErrorShape passes input, ctx, path and type to the formatter')).toEqual({ input: { id: 'a' }, ctx: { user: 'ann' }, path: 'outer.get', type: 'query' });
});

test('a thrown value becomes a TRPCError: TRPCErrors as they are, anything else internal with its cause and stack', () => {
  const own = new TRPCError({ code: 'CONFLICT', message: 'taken' });
  expect(errorOf(own)).toBe(own);
  const cause = new Error('disk on fire');
  const wrapped = errorOf(cause);
  expect([wrapped.code, wrapped.message, wrapped.cause, wrapped.stack]).toEqual(['INTERNAL_SERVER_ERROR', 'Internal server error', cause, cause.stack]);
  expect(errorOf('a string').cause).toBeUndefined();
});
