import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { unavailableError } from '@hm/domain/core';
import { DomainError, HttpError, problemOf, type FieldError, type Problem } from './problems.js';
import type { Meta } from './procedure-meta.js';

/**
 * A failed call's error as the problem both transports send (RFC 9457): domain errors by their
 * code, losing the database as 503, zod's issues as every invalid field at once, located where the
 * client sent it (`body.price.amount`, `query.limit`, `path.id`).
 */

const TRPC_TO_PROBLEM: Partial<Record<TRPCError['code'], Problem['code']>> = {
  PARSE_ERROR: 'malformed_request',
  BAD_REQUEST: 'malformed_request',
  UNAUTHORIZED: 'invalid_api_key',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not_found',
  METHOD_NOT_SUPPORTED: 'method_not_allowed',
  CONFLICT: 'conflict',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  UNPROCESSABLE_CONTENT: 'validation_failed',
  TOO_MANY_REQUESTS: 'rate_limited',
  SERVICE_UNAVAILABLE: 'service_unavailable',
};

export function toProblem(error: TRPCError | Error, meta: Meta | undefined, input: unknown): Problem {
  return locateFields(plainProblem(error, input), (field) => httpLocation(meta, field));
}

/**
 * The problem for an error, its field errors at plain paths within the input (`email`,
 * `price.amount`, `` for the input as a whole), as domain code reports them. Each transport then
 * says where it received them (`locateFields`).
 */
export function plainProblem(error: TRPCError | Error, input: unknown): Problem {
  const cause = error instanceof TRPCError ? error.cause : error;
  if (cause instanceof DomainError || cause instanceof HttpError) return problemOf(cause.code, cause.message, cause.errors);
  const unavailable = unavailableError(cause ?? error);
  if (unavailable) return problemOf(unavailable.code, unavailable.message);
  if (cause instanceof ZodError) {
    const errors = zodIssuesToFieldErrors(cause, input);
    return problemOf('validation_failed', describe(errors), errors);
  }
  if (error instanceof TRPCError) {
    const code = TRPC_TO_PROBLEM[error.code];
    if (code) return problemOf(code, error.message);
  }
  return problemOf('internal_error', 'Something went wrong on our side. Retry later; if it persists, contact support with the request id.');
}

/** Maps each plain field path to where the transport received it; a detail that names the one invalid field follows. */
export function locateFields(problem: Problem, where: (field: string) => string): Problem {
  if (problem.errors.length === 0) return problem;
  const errors = problem.errors.map((e) => ({ ...e, location: where(e.location) }));
  const only = problem.errors.length === 1 ? problem.errors[0]! : undefined;
  const detail = only && problem.detail === `${only.location}: ${only.message}` ? `${errors[0]!.location}: ${only.message}` : problem.detail;
  return { ...problem, detail, errors };
}

function describe(errors: FieldError[]): string {
  if (errors.length === 1) return `${errors[0]!.location}: ${errors[0]!.message}`;
  return `The request has ${errors.length} invalid fields; see errors.`;
}

/** Where a field was sent: a path parameter of the route, else the query (GET/DELETE) or the JSON body. */
function fieldLocation(meta: Meta | undefined, field: string): 'path' | 'query' | 'body' {
  const openapi = meta?.openapi;
  if (!openapi) return 'body';
  if (openapi.path.includes(`{${field}}`)) return 'path';
  return openapi.method === 'GET' || openapi.method === 'DELETE' ? 'query' : 'body';
}

/** `price.amount` → `body.price.amount` (the input as a whole: `body`). */
export function httpLocation(meta: Meta | undefined, field: string): string {
  if (field === '') return 'body';
  return `${fieldLocation(meta, field.split('.')[0]!)}.${field}`;
}

/** Zod issues as field errors at plain paths within the input (`price.amount`; `` for the input as a whole). */
export function zodIssuesToFieldErrors(error: ZodError, input: unknown): FieldError[] {
  const all = error.issues.flatMap((issue) => {
    // Unknown keys are reported once per key, each at its own location.
    const paths = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    return paths.map((p) => {
      const segments = p.map(String);
      const value = valueAt(input, segments);
      return { issue, error: { location: segments.join('.'), message: messageFor(issue, value), value: shownValue(segments, value) } };
    });
  });
  // zod runs every check of a field: a value too long to be an address is also "not an address".
  // The length says what to fix; one field's identical messages are one problem.
  const sized = new Set(all.filter((e) => e.issue.code === 'too_big' || e.issue.code === 'too_small').map((e) => e.error.location));
  const seen = new Set<string>();
  return all
    .filter((e) => !(e.issue.code === 'invalid_format' && sized.has(e.error.location)))
    .map((e) => e.error)
    .filter((e) => {
      const id = `${e.location}\u0000${e.message}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
}

/** Secrets a client sends are never echoed back in a problem. */
const SECRET_FIELDS = new Set(['password', 'token', 'client_secret']);

/** What a problem shows of a value the client sent: null when absent or a secret. */
export function shownValue(path: string[], value: unknown): unknown {
  return value === undefined || path.some((seg) => SECRET_FIELDS.has(seg)) ? null : value;
}

function messageFor(issue: ZodError['issues'][number], value: unknown): string {
  if (issue.code === 'invalid_type' && value === undefined) return 'Required.';
  if (issue.code === 'unrecognized_keys') return 'Unknown field.';
  // Sizes are worded from the limit itself: a schema-wide custom message ("Must be an email
  // address.") would otherwise be repeated for a length problem too.
  if (issue.code === 'too_big' || issue.code === 'too_small') {
    const sized = sizeMessage(issue.code === 'too_big', issue.origin, Number(issue.code === 'too_big' ? issue.maximum : issue.minimum), issue.inclusive ?? true);
    if (sized) return sized;
  }
  const msg = issue.message.replace(/^Invalid input: /, '');
  return msg.endsWith('.') ? msg : `${msg}.`;
}

function sizeMessage(big: boolean, origin: string, limit: number, inclusive: boolean): string | undefined {
  const unit = origin === 'string' ? 'character' : origin === 'array' || origin === 'set' ? 'item' : undefined;
  if (unit) {
    const n = (k: number) => `${k} ${unit}${k === 1 ? '' : 's'}`;
    if (big) return inclusive ? `Must be at most ${n(limit)}.` : `Must be fewer than ${n(limit)}.`;
    return inclusive ? `Must be at least ${n(limit)}.` : `Must be more than ${n(limit)}.`;
  }
  if (origin === 'number' || origin === 'int' || origin === 'bigint') {
    if (big) return inclusive ? `Must be at most ${limit}.` : `Must be less than ${limit}.`;
    return inclusive ? `Must be at least ${limit}.` : `Must be greater than ${limit}.`;
  }
  return undefined;
}

function valueAt(input: unknown, path: string[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
