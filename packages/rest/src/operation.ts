import { acceptsRequestBody, coerceSchema, getInputOutputParsers, instanceofZodTypeLikeVoid, instanceofZodTypeObject, unwrapZodType } from 'trpc-to-openapi';
import type { $ZodType } from 'zod/v4/core';
import type { RestMeta, RestRoute } from './routes.js';

/**
 * What a route needs per request, worked out once: where its input comes from (the JSON body for
 * POST/PUT/PATCH, else the query; then the path parameters over it), which query names are arrays,
 * which are booleans, and the query coercion trpc-to-openapi's handler turned on.
 */
export interface Operation<M extends RestMeta = RestMeta> {
  route: RestRoute<M>;
  type: 'query' | 'mutation';
  useBody: boolean;
  /** `z.void()` and the like: the procedure gets no input at all */
  takesNoInput: boolean;
  /** top-level query names whose field is an array: a single value becomes a one-item array */
  arrayKeys: string[];
  /** top-level query names whose field is a boolean: `true`/`false` become booleans, anything else is left for the schema to refuse */
  booleanKeys: string[];
  /** top-level query names whose text cannot be empty (an enum, a minimum length, a format): an empty value is kept for the schema to refuse */
  nonEmptyKeys: string[];
  /** the procedure's input from the request's parts, exactly as the procedure receives it */
  inputOf(source: unknown, params: Record<string, string>): unknown;
  /** query and path values are text: coercion on for the schema at its first call (bodies stay strict, strict-bodies.ts) */
  coerce(): void;
}

export function operationOf<M extends RestMeta>(route: RestRoute<M>, type: 'query' | 'mutation'): Operation<M> {
  const schema = inputSchema(route);
  const useBody = acceptsRequestBody(route.method as Parameters<typeof acceptsRequestBody>[0]);
  const isObject = schema !== undefined && instanceofZodTypeObject(schema);
  const fields = isObject && !useBody ? Object.entries(schema.shape as Record<string, $ZodType>) : [];
  // as trpc-to-openapi's handler: a direct or optional array (a `z.preprocess` takes what it is given)
  const arrayKeys = fields.flatMap(([key, field]) => (kindOf(field) === 'array' || (kindOf(field) === 'optional' && kindOf(inner(field)) === 'array') ? [key] : []));
  const booleanKeys = fields.flatMap(([key, field]) => (isPlainBoolean(field) ? [key] : []));
  const nonEmptyKeys = fields.flatMap(([key, field]) => (refusesEmptyText(field) ? [key] : []));
  const takesNoInput = instanceofZodTypeLikeVoid(schema as never);
  let coerced = !isObject;
  return {
    route,
    type,
    useBody,
    takesNoInput,
    arrayKeys,
    booleanKeys,
    nonEmptyKeys,
    inputOf(source, params) {
      if (takesNoInput) return undefined;
      return { ...(useBody ? (source as object | undefined) : queryInput(source as Record<string, unknown>, arrayKeys, booleanKeys, nonEmptyKeys)), ...params };
    },
    coerce() {
      if (coerced) return;
      coerceSchema(schema as never);
      coerced = true;
    },
  };
}

/** The route's input schema, unwrapped (optional, default, …), as trpc-to-openapi reads it. */
export function inputSchema(route: Pick<RestRoute, 'inputs'>): $ZodType | undefined {
  const { inputParser } = getInputOutputParsers({ _def: { inputs: route.inputs } } as never);
  return unwrapZodType(inputParser as never, true) as unknown as $ZodType | undefined;
}

const kindOf = (t: $ZodType | undefined) => (t?._zod.def as { type?: string } | undefined)?.type;
const inner = (t: $ZodType) => (t._zod.def as { innerType?: $ZodType }).innerType!;

/** `z.boolean()` through optional/nullable/default, not an explicit `z.coerce.boolean()` (whose `Boolean(value)` is meant). */
export function isPlainBoolean(field: $ZodType): boolean {
  let t = field;
  while (['optional', 'nullable', 'default', 'prefault'].includes(kindOf(t)!)) t = inner(t);
  return kindOf(t) === 'boolean' && !(t._zod.def as { coerce?: boolean }).coerce;
}

/**
 * A text field (through optional/nullable/default, an array's items) whose schema refuses the empty
 * text: an enum, a minimum length, a format such as a UUID. Checked on the schema as declared
 * (before query coercion, so numbers and booleans, whose empty value coercion would turn into 0 or
 * false, are not text here).
 */
export function refusesEmptyText(field: $ZodType): boolean {
  let t = field;
  while (['optional', 'nullable', 'default', 'prefault', 'array'].includes(kindOf(t)!)) t = kindOf(t) === 'array' ? (t._zod.def as unknown as { element: $ZodType }).element : inner(t);
  if (!['string', 'enum', 'literal'].includes(kindOf(t)!)) return false;
  try {
    return !(t as unknown as { safeParse(v: unknown): { success: boolean } }).safeParse('').success;
  } catch {
    return false; // an asynchronous check: left as before (an empty value is no value)
  }
}

/**
 * The query as the procedure receives it: empty values left out — except for a name whose text
 * cannot be empty (`nonEmptyKeys`: an enum, a minimum length, a format), whose empty value the
 * schema then refuses, as Stripe refuses `status=` (a value that is not one of the enum's is not
 * "no value") — a name given once as its value
 * and a repeated name as its values in order (a comma is part of a value, not a separator), an
 * array field's single value as a one-item array, a boolean field's `true`/`false` as a boolean.
 */
export function queryInput(query: Record<string, unknown>, arrayKeys: readonly string[] = [], booleanKeys: readonly string[] = [], nonEmptyKeys: readonly string[] = []): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (value || (value === '' && nonEmptyKeys.includes(key))) input[key] = Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
  for (const key of arrayKeys) if (input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
  for (const key of booleanKeys) if (input[key] === 'true' || input[key] === 'false') input[key] = input[key] === 'true';
  return input;
}
