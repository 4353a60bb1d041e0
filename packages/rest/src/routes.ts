import type { OpenApiMeta } from 'trpc-to-openapi';
import type { AnyTRPCRouter } from '@trpc/server';
import { parseTemplate, type PathTemplate } from './template.js';
import { proceduresOf } from './trpc-internals.js';

/** The OpenAPI meta every /v1 procedure carries (trpc-to-openapi's), plus whatever the app adds. */
export type RestMeta = OpenApiMeta & {
  openapi?: { method: string; path: string; enabled?: boolean };
  /** the /v1 success status when not 200 (201 created, 202 accepted, 204 no content) */
  successStatus?: number;
};

export interface RestRoute<M extends RestMeta = RestMeta> {
  method: string;
  /** the OpenAPI path, `/listings/{id}` */
  path: string;
  template: PathTemplate;
  procedurePath: string;
  meta: M;
  /** the procedure's input parsers (`.input(...)`, zod schemas), in order */
  inputs: unknown[];
}

/** The router's procedures that have OpenAPI meta (and are not `enabled: false`), as routes. */
export function restRoutes<M extends RestMeta = RestMeta>(router: AnyTRPCRouter): RestRoute<M>[] {
  return Object.entries(proceduresOf(router)).flatMap(([procedurePath, p]) => {
    const meta = p._def.meta as M | undefined;
    if (!meta?.openapi || meta.openapi.enabled === false) return [];
    const { method, path } = meta.openapi;
    return [{ method, path, template: parseTemplate(path), procedurePath, meta, inputs: p._def.inputs }];
  });
}

export interface RouteMatch<M extends RestMeta> {
  /** the route for this method (HEAD matches GET), undefined for 404/405 */
  route?: RestRoute<M>;
  /** the path parameters, percent-decoded once */
  params: Record<string, string>;
  /** the methods of every template that matches the path (405's `Allow`): the most specific template's first, then the router's order */
  allowed: string[];
  /** a parameter whose value is not valid percent-encoded UTF-8 */
  malformed?: string;
}

export interface RouteTable<M extends RestMeta> {
  readonly routes: readonly RestRoute<M>[];
  match(method: string, path: string): RouteMatch<M>;
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * Routes grouped by their first path segment (`/listings/{id}` → `listings`), so a request tries a
 * few templates, not all. Where two templates match one path, the one whose first differing
 * segment is static wins (`/pages/home` before `/pages/{slug}`), whatever the router's order.
 */
export function routeTable<M extends RestMeta>(routes: RestRoute<M>[]): RouteTable<M> {
  const index = new Map<string, RestRoute<M>[]>();
  for (const route of routes) {
    const first = route.template.segments[0];
    if (!first || first.kind === 'param') throw new Error(`A /v1 path starting with a parameter cannot be indexed: ${route.path}`);
    index.set(first.text, [...(index.get(first.text) ?? []), route]);
  }
  for (const group of index.values()) group.sort((a, b) => specificity(a.template, b.template));
  return {
    routes,
    match(method, path) {
      const slash = path.indexOf('/', 1);
      const group = index.get(slash === -1 ? path.slice(1) : path.slice(1, slash));
      const wanted = method === 'HEAD' ? 'GET' : method;
      let found: RouteMatch<M> | undefined;
      const allowed: string[] = [];
      for (const route of group ?? []) {
        const m = route.template.match(path);
        if (!m) continue;
        if (!allowed.includes(route.method)) allowed.push(route.method);
        if (found || route.method !== wanted) continue;
        found = m.malformed === undefined ? { route, params: m.params, allowed } : { params: NO_PARAMS, allowed, malformed: m.malformed };
      }
      return found ?? { params: NO_PARAMS, allowed };
    },
  };
}

/** Negative when `a` is more specific: at the first segment where one is static and the other a parameter. */
function specificity(a: PathTemplate, b: PathTemplate): number {
  const n = Math.min(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const sa = a.segments[i]!.kind;
    const sb = b.segments[i]!.kind;
    if (sa !== sb) return sa === 'static' ? -1 : 1;
  }
  return 0;
}
