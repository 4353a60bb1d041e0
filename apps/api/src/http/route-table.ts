import type { Meta } from '@hm/contract/trpc';
import type { AnyTRPCRouter } from '@trpc/server';

export interface RestRoute {
  method: string;
  path: string;
  pattern: RegExp;
  procedurePath: string;
  meta: Meta;
  /** the procedure's input parsers (`.input(...)`, zod schemas), in order */
  inputs: unknown[];
}

/** The /v1 operations, from the router's OpenAPI meta: used for 404 vs 405 and per-route behaviour. */
export function restRoutes(router: AnyTRPCRouter): RestRoute[] {
  const procedures = router._def.procedures as Record<string, { _def: { meta?: Meta; inputs: unknown[] } }>;
  return Object.entries(procedures).flatMap(([procedurePath, p]) => {
    const meta = p._def.meta;
    if (!meta?.openapi || meta.openapi.enabled === false) return [];
    const source = meta.openapi.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    return [{ method: meta.openapi.method, path: meta.openapi.path, pattern: new RegExp(`^${source}/?$`), procedurePath, meta, inputs: p._def.inputs }];
  });
}

/** The routes by their path's first segment (`/listings/{id}` → `listings`), so a request tests a few patterns, not all. */
const bySegment = new WeakMap<RestRoute[], Map<string, RestRoute[]>>();
const firstSegment = (path: string) => path.split('/', 2)[1] ?? '';

export function matchRoute(routes: RestRoute[], method: string, path: string): { route?: RestRoute; allowed: string[] } {
  let index = bySegment.get(routes);
  if (!index) {
    index = new Map();
    for (const r of routes) {
      const segment = firstSegment(r.path);
      if (segment.startsWith('{')) throw new Error(`A /v1 path starting with a parameter cannot be indexed: ${r.path}`);
      index.set(segment, [...(index.get(segment) ?? []), r]);
    }
    bySegment.set(routes, index);
  }
  const forPath = (index.get(firstSegment(path)) ?? []).filter((r) => r.pattern.test(path));
  return { route: forPath.find((r) => r.method === method), allowed: [...new Set(forPath.map((r) => r.method))] };
}
