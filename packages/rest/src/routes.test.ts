import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod';
import { describe, expect, test } from 'vitest';
import { restRoutes, routeTable } from './routes.js';

const t = initTRPC.meta<OpenApiMeta>().create();
const op = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: `/${string}`) => t.procedure.meta({ openapi: { method, path } }).input(z.object({}).passthrough());

const router = t.router({
  // the parameter route comes first on purpose: precedence does not depend on the router's order
  getPage: op('GET', '/pages/{slug}').query(() => 'param'),
  getHome: op('GET', '/pages/home').query(() => 'static'),
  deletePage: op('DELETE', '/pages/{slug}').mutation(() => 'x'),
  previewPage: op('GET', '/pages/{slug}/preview').query(() => 'x'),
  nested: t.router({ createThing: op('POST', '/things').mutation(() => 'x'), putThing: op('PUT', '/things/{id}').mutation(() => 'x') }),
  hidden: t.procedure.meta({ openapi: { method: 'GET', path: '/hidden', enabled: false } }).query(() => 'x'),
  trpcOnly: t.procedure.query(() => 'x'),
});
const table = routeTable(restRoutes(router));
const matched = (method: string, path: string) => {
  const m = table.match(method, path);
  return { procedure: m.route?.procedurePath, params: m.params, allowed: m.allowed, ...(m.malformed ? { malformed: m.malformed } : {}) };
};

describe('route table', () => {
  test('routes come from OpenAPI meta only, nested routers by their dotted path; enabled: false is left out', () => {
    expect(restRoutes(router).map((r) => `${r.method} ${r.path} ${r.procedurePath}`)).toEqual([
      'GET /pages/{slug} getPage',
      'GET /pages/home getHome',
      'DELETE /pages/{slug} deletePage',
      'GET /pages/{slug}/preview previewPage',
      'POST /things nested.createThing',
      'PUT /things/{id} nested.putThing',
    ]);
  });

  test('a static segment wins over a parameter, whatever the order of the router', () => {
    expect(matched('GET', '/pages/home')).toEqual({ procedure: 'getHome', params: {}, allowed: ['GET', 'DELETE'] });
    expect(matched('GET', '/pages/about')).toEqual({ procedure: 'getPage', params: { slug: 'about' }, allowed: ['GET', 'DELETE'] });
    // DELETE /pages/home: only the parameter template has DELETE
    expect(matched('DELETE', '/pages/home')).toEqual({ procedure: 'deletePage', params: { slug: 'home' }, allowed: ['GET', 'DELETE'] });
    expect(matched('GET', '/pages/about/preview')).toEqual({ procedure: 'previewPage', params: { slug: 'about' }, allowed: ['GET'] });
  });

  test('trailing slash: the same route', () => {
    expect(matched('GET', '/pages/about/')).toMatchObject({ procedure: 'getPage', params: { slug: 'about' } });
    expect(matched('POST', '/things/')).toMatchObject({ procedure: 'nested.createThing' });
  });

  test('HEAD matches the GET operation; 405 lists the methods of the path; unknown paths match nothing', () => {
    expect(matched('HEAD', '/pages/about')).toMatchObject({ procedure: 'getPage', params: { slug: 'about' } });
    expect(matched('HEAD', '/things')).toEqual({ procedure: undefined, params: {}, allowed: ['POST'] });
    expect(matched('PATCH', '/pages/about')).toEqual({ procedure: undefined, params: {}, allowed: ['GET', 'DELETE'] });
    expect(matched('GET', '/nowhere')).toEqual({ procedure: undefined, params: {}, allowed: [] });
    expect(matched('GET', '/pages')).toEqual({ procedure: undefined, params: {}, allowed: [] });
    expect(matched('GET', '/')).toEqual({ procedure: undefined, params: {}, allowed: [] });
    expect(matched('GET', '/hidden')).toEqual({ procedure: undefined, params: {}, allowed: [] });
  });

  test('path parameters are decoded once; a malformed one is named', () => {
    expect(matched('PUT', '/things/caf%C3%A9')).toMatchObject({ procedure: 'nested.putThing', params: { id: 'café' } });
    expect(matched('PUT', '/things/%E0%A4%A')).toEqual({ procedure: undefined, params: {}, allowed: ['PUT'], malformed: 'id' });
  });

  test('a template starting with a parameter cannot be indexed: startup says which', () => {
    const bad = t.router({ x: op('GET', '/{tenant}/things').query(() => 'x') });
    expect(() => routeTable(restRoutes(bad))).toThrow('A /v1 path starting with a parameter cannot be indexed: /{tenant}/things');
  });
});
