import type { FastifyRequest } from 'fastify';
import { ZodError, type ZodType } from 'zod';
import { coerceSchema, instanceofZodTypeObject, unwrapZodType, getInputOutputParsers } from 'trpc-to-openapi';
import { ValidationError, type FieldError } from '@hm/contract/problems';
import { httpLocation, shownValue, zodIssuesToFieldErrors } from '@hm/contract/trpc';
import { pathParams, pathTextErrors, queryTextErrors, textErrors } from './client-input.js';
import type { RestRoute } from './route-table.js';

export const NOT_AN_OBJECT_MESSAGE = 'Must be a JSON object.';

/**
 * The checks every /v1 operation's input gets before the procedure (thrown as one ValidationError):
 * - a JSON body, when sent, is an object (the adapter would spread `[]`, `true` or `3` into "no input");
 * - every path, query and body string is text (client-input.ts `badText`).
 * When some string is not text, the procedure's own schemas also validate the input here, so the
 * problem lists every invalid field, not only the ones the transport saw first.
 */
export async function checkRestInput(req: FastifyRequest, route: RestRoute, path: string): Promise<void> {
  const body = req.body;
  if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    throw new ValidationError([{ location: 'body', message: NOT_AN_OBJECT_MESSAGE, value: shownValue([], body) }]);
  }
  const params = pathParams(route.path, path);
  const query = req.query as Record<string, unknown>;
  const errors = [...pathTextErrors(params), ...queryTextErrors(query), ...(body === undefined ? [] : [...shadowingErrors(body as Record<string, unknown>, params), ...textErrors(body, 'body')])];
  if (!errors.length) return;
  const seen = new Set(errors.map((e) => e.location));
  const fromSchemas = (await schemaErrors(route, adapterInput(route, params, query, body as Record<string, unknown> | undefined))).filter((e) => !seen.has(e.location));
  throw new ValidationError([...errors, ...fromSchemas]);
}

/**
 * A body field named like a path parameter (`{"id": …}` to `/me/orders/{id}/…`): the adapter merges
 * the path over the body, so it would be silently ignored; the document refuses it (unknown field).
 */
function shadowingErrors(body: Record<string, unknown>, params: Record<string, string>): FieldError[] {
  return Object.keys(params)
    .filter((name) => Object.hasOwn(body, name))
    .map((name) => ({ location: `body.${name}`, message: 'Unknown field.', value: shownValue([name], body[name]) }));
}

const takesBody = (method: string) => method !== 'GET' && method !== 'DELETE';

/**
 * The input trpc-to-openapi would hand the procedure (its node-http core): the body, or the query
 * with a repeated-name field's single value as a one-item array, then the path parameters.
 */
function adapterInput(route: RestRoute, params: Record<string, string>, query: Record<string, unknown>, body: Record<string, unknown> | undefined) {
  if (takesBody(route.method)) return { ...body, ...params };
  const input: Record<string, unknown> = { ...query };
  const schema = objectSchema(route);
  for (const [key, field] of Object.entries(schema?.shape ?? {})) {
    const isArray = (unwrapZodType(field, false) as { def?: { type?: string } }).def?.type === 'array';
    if (isArray && input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
  }
  return { ...input, ...params };
}

function objectSchema(route: RestRoute) {
  const { inputParser } = getInputOutputParsers({ _def: { inputs: route.inputs } } as never);
  const unwrapped = unwrapZodType(inputParser as never, true);
  return unwrapped && instanceofZodTypeObject(unwrapped) ? unwrapped : undefined;
}

/** The procedure's schemas' verdict on the input, at HTTP locations (`body.x`, `query.x`, `path.x`). */
async function schemaErrors(route: RestRoute, input: Record<string, unknown>): Promise<FieldError[]> {
  // Query and path values are text: the same coercion the adapter turns on (bodies stay strict, strict-bodies.ts).
  const schema = objectSchema(route);
  if (schema) coerceSchema(schema);
  const errors: FieldError[] = [];
  for (const parser of route.inputs as ZodType[]) {
    const result = await parser.safeParseAsync(input);
    if (!result.success && result.error instanceof ZodError) errors.push(...zodIssuesToFieldErrors(result.error, input));
  }
  return errors.map((e) => ({ ...e, location: httpLocation(route.meta, e.location) }));
}
