import type { ZodError, ZodType } from 'zod';
import { instanceofZodTypeObject } from 'trpc-to-openapi';
import { inputSchema, type Operation } from './operation.js';
import type { RestRoute } from './routes.js';
import { pathTextErrors, queryTextErrors, textErrors, type FieldError } from './text.js';

export const NOT_AN_OBJECT_MESSAGE = 'Must be a JSON object.';

/** Zod issues as field errors at plain paths within the input (`price.amount`; `` for the input as a whole): the app's wording. */
export type ZodFieldErrors = (error: ZodError, input: unknown) => FieldError[];

/**
 * The checks every /v1 operation's input gets before the procedure, returned as one list (empty:
 * none failed):
 * - a JSON body, when sent, is an object (the adapter would spread `[]`, `true` or `3` into "no input");
 * - every path, query and body string is text (text.ts `badText`);
 * - no body field is named like a path parameter (the path would silently win over it).
 * When some check fails, the procedure's own schemas also validate the input here, so the problem
 * lists every invalid field, not only the ones the transport saw first. When none fails the answer
 * is there at once (an empty list, no promise): the common case costs no turn of the event loop.
 */
export function inputErrors(op: Operation, params: Record<string, string>, query: Record<string, unknown>, body: unknown, zodErrors: ZodFieldErrors): FieldError[] | Promise<FieldError[]> {
  if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    return [{ location: 'body', message: NOT_AN_OBJECT_MESSAGE, value: body }];
  }
  // Unknown keys are set aside first, one lookup each: the other checks and the schemas see only the known ones
  const { unknown, known } = op.useBody && body !== undefined ? splitUnknownKeys(op, body as Record<string, unknown>) : { unknown: [], known: body };
  const errors = [...pathTextErrors(params), ...queryTextErrors(query), ...(known === undefined ? [] : [...shadowingErrors(known as Record<string, unknown>, params), ...textErrors(known, 'body')]), ...unknown];
  if (!errors.length) return errors;
  const seen = new Set(errors.map((e) => e.location));
  return schemaErrors(op, op.inputOf(op.useBody ? known : query, params), zodErrors).then((fromSchemas) => [...errors, ...fromSchemas.filter((e) => !seen.has(e.location))]);
}

export const UNKNOWN_FIELD_MESSAGE = 'Unknown field.';
/** Past this many unknown body keys, the request is refused with them before any schema runs. */
export const MANY_UNKNOWN_KEYS = 100;

/**
 * A body's top-level keys that the operation's strict input object does not name, and the body
 * without them, when there are more than MANY_UNKNOWN_KEYS. Found with one lookup per key before any
 * schema runs, so a body of 90 000 unknown keys costs one pass, not a validation of each (issue 24);
 * fewer are left in the body for the procedure to list with every other problem.
 */
function splitUnknownKeys(op: Operation, body: Record<string, unknown>): { unknown: FieldError[]; known: Record<string, unknown> } {
  const schema = inputSchema(op.route);
  const strict = schema && instanceofZodTypeObject(schema) && (schema._zod.def as { catchall?: { _zod: { def: { type: string } } } }).catchall?._zod.def.type === 'never';
  if (!strict) return { unknown: [], known: body };
  const shape = schema.shape as Record<string, unknown>;
  const unknown: FieldError[] = [];
  let known: Record<string, unknown> | undefined;
  for (const key of Object.keys(body)) {
    if (Object.hasOwn(shape, key)) continue;
    unknown.push({ location: `body.${key}`, message: UNKNOWN_FIELD_MESSAGE, value: body[key] });
    known ??= {};
  }
  // a few are the schema's to list with everything else it checks (and the procedure's own checks after it)
  if (!known || unknown.length <= MANY_UNKNOWN_KEYS) return { unknown: [], known: body };
  for (const key of Object.keys(shape)) if (Object.hasOwn(body, key)) known[key] = body[key];
  return { unknown, known };
}

/**
 * A body field named like a path parameter (`{"id": …}` to `/me/orders/{id}/…`): the input merges
 * the path over the body, so it would be silently ignored; the document refuses it (unknown field).
 */
function shadowingErrors(body: Record<string, unknown>, params: Record<string, string>): FieldError[] {
  return Object.keys(params)
    .filter((name) => Object.hasOwn(body, name))
    .map((name) => ({ location: `body.${name}`, message: UNKNOWN_FIELD_MESSAGE, value: body[name] }));
}

/** The procedure's schemas' verdict on the input, at HTTP locations (`body.x`, `query.x`, `path.x`). */
async function schemaErrors(op: Operation, input: unknown, zodErrors: ZodFieldErrors): Promise<FieldError[]> {
  op.coerce();
  const errors: FieldError[] = [];
  for (const parser of op.route.inputs as ZodType[]) {
    const result = await parser.safeParseAsync(input);
    if (!result.success) errors.push(...zodErrors(result.error, input));
  }
  return errors.map((e) => ({ ...e, location: httpLocation(op.route, e.location) }));
}

/**
 * Where a field of a route's input was sent: `path.<name>` for a path parameter, else `query.<field>`
 * (GET, DELETE) or `body.<field>`; the input as a whole (``) is `body`.
 */
export function httpLocation(route: Pick<RestRoute, 'method' | 'template'>, field: string): string {
  if (field === '') return 'body';
  const first = field.split('.', 1)[0]!;
  const where = route.template.params.includes(first) ? 'path' : route.method === 'GET' || route.method === 'DELETE' ? 'query' : 'body';
  return `${where}.${field}`;
}
