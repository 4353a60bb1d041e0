import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { coerceSchema } from 'trpc-to-openapi';
import { z } from 'zod';
import { expect, test } from 'vitest';
import type { Meta } from '@hm/contract/trpc';
import { restRoutes } from './route-table.js';
import { keepBodiesStrict } from './strict-bodies.js';

const t = initTRPC.meta<OpenApiMeta>().create();
const op = (method: 'GET' | 'POST', path: string) => ({ auth: 'key', openapi: { method, path } }) as Meta;

test('body fields stay strict after the adapter coerces; query fields and explicit z.coerce still coerce', () => {
  const amount = z.number();
  const flag = z.boolean();
  const limit = z.number();
  const body = z.object({ id: z.string(), price: z.object({ amount }), flags: z.array(flag).optional(), count: z.coerce.number() });
  const query = z.object({ limit });
  const router = t.router({
    create: t.procedure.meta(op('POST', '/things/{id}')).input(body).mutation(() => 'ok'),
    list: t.procedure.meta(op('GET', '/things')).input(query).query(() => 'ok'),
  });
  keepBodiesStrict(router, restRoutes(router));
  coerceSchema(body); // what trpc-to-openapi does on each request
  coerceSchema(query);
  expect(body.safeParse({ id: 'x', price: { amount: '100' }, count: 1 }).success).toBe(false);
  expect(body.safeParse({ id: 'x', price: { amount: 100 }, flags: ['false'], count: 1 }).success).toBe(false);
  expect(body.parse({ id: 'x', price: { amount: 100 }, count: '3' }).count).toBe(3);
  expect(query.parse({ limit: '5' })).toEqual({ limit: 5 });
  keepBodiesStrict(router, restRoutes(router)); // a second app in the same process
});

test('a schema shared by a query and a body cannot be both: startup names it', () => {
  const shared = z.number();
  const router = t.router({
    create: t.procedure.meta(op('POST', '/things')).input(z.object({ n: shared })).mutation(() => 'ok'),
    list: t.procedure.meta(op('GET', '/things')).input(z.object({ n: shared.optional() })).query(() => 'ok'),
  });
  expect(() => keepBodiesStrict(router, restRoutes(router))).toThrow(/GET \/things query\.n and POST \/things body\.n/);
});
