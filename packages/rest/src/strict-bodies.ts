import { instanceofZodTypeCoercible, instanceofZodTypeObject, unwrapZodType } from 'trpc-to-openapi';
import type { $ZodType } from 'zod/v4/core';
import { inputSchema, isPlainBoolean } from './operation.js';
import type { RestRoute } from './routes.js';

/**
 * trpc-to-openapi turns on zod coercion (`def.coerce = true`) for every number, boolean, bigint and
 * date it finds in an input object, whether the values came from the query string or from a JSON
 * body, and it does so on the shared schema objects (so /trpc coerced too). Query and path values
 * are text and need it; JSON bodies are typed and must not get it (`"100"` is not 100, `"false"` is
 * not true).
 *
 * So, once at startup: every coercible field reachable from a body (POST/PUT/PATCH, path parameters
 * excepted) has its `coerce` flag pinned off, the same walk the adapter does. A field schema shared
 * by a query and a body would need both, which cannot be: startup fails and names it. A query's
 * boolean is pinned off too: `Boolean("false")` is true, so the dispatcher reads `true`/`false`
 * itself (operation.ts `queryInput`) and leaves any other value for the schema to refuse.
 */
export function keepBodiesStrict(routes: RestRoute[]) {
  const inQuery = new Map<$ZodType, string>();
  const inBody = new Map<$ZodType, string>();
  const queryBooleans = new Set<$ZodType>();
  for (const route of routes) {
    const body = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
    const pathParams = route.template.params;
    const input = inputSchema(route);
    if (!input) continue;
    if (!body && instanceofZodTypeObject(input)) {
      for (const field of Object.values(input.shape as Record<string, $ZodType>)) if (isPlainBoolean(field)) queryBooleans.add(unwrapZodType(field as never, false) as unknown as $ZodType);
    }
    for (const [key, leaf] of coercibleFields(input)) {
      const fromText = !body || (pathParams.includes(key) && leaf.path.length === 1);
      if (queryBooleans.has(leaf.schema)) continue;
      (fromText ? inQuery : inBody).set(leaf.schema, `${route.method} ${route.path} ${fromText ? 'query' : 'body'}.${leaf.path.join('.')}`);
    }
  }
  const shared = [...inBody.keys()].filter((s) => inQuery.has(s)).map((s) => `${inQuery.get(s)} and ${inBody.get(s)}`);
  if (shared.length) throw new Error(`These fields share one zod schema between a query/path and a JSON body; give each its own:\n  ${shared.join('\n  ')}`);
  for (const schema of [...inBody.keys(), ...queryBooleans]) pinStrict(schema);
}

interface Leaf {
  schema: $ZodType;
  path: string[];
}

/** The fields trpc-to-openapi's `coerceSchema` would coerce: top-level and nested object fields, arrays' elements, through optional/default/nullable. */
function coercibleFields(input: $ZodType): [string, Leaf][] {
  if (!instanceofZodTypeObject(input)) return [];
  const out: [string, Leaf][] = [];
  const stack: { shape: Record<string, $ZodType>; path: string[] }[] = [{ shape: input.shape as Record<string, $ZodType>, path: [] }];
  while (stack.length) {
    const { shape, path } = stack.pop()!;
    for (const [key, field] of Object.entries(shape)) {
      const unwrapped = unwrapZodType(field, false) as unknown as $ZodType;
      if (instanceofZodTypeCoercible(unwrapped)) out.push([path[0] ?? key, { schema: unwrapped, path: [...path, key] }]);
      else if (instanceofZodTypeObject(unwrapped)) stack.push({ shape: unwrapped.shape as Record<string, $ZodType>, path: [...path, key] });
    }
  }
  return out;
}

/** zod reads `def.coerce` on every parse; pinned to false, the adapter's write is ignored. Explicit `z.coerce.*` stays. */
function pinStrict(schema: $ZodType) {
  const def = schema._zod.def as { coerce?: boolean };
  if (Object.getOwnPropertyDescriptor(def, 'coerce')?.get || def.coerce) return; // pinned by an earlier app in this process, or meant

  Object.defineProperty(def, 'coerce', { get: () => false, set: () => {}, configurable: false, enumerable: false });
}
