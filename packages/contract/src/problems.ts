import { DomainError, type DomainCode, type FieldError } from '@hm/domain/core';

export { ConflictError, DomainError, NotFoundError, ValidationError, describeErrors, type DomainCode, type FieldError } from '@hm/domain/core';

/**
 * Every failure the API can answer, by stable code: the domain's codes (core/errors.ts) and the
 * transport's own. This one table maps a code to its HTTP status and title; the tRPC error formatter
 * and the HTTP layer turn an error into an RFC 9457 problem through it.
 */
export const PROBLEMS = {
  malformed_request: { status: 400, title: 'Malformed request' },
  invalid_idempotency_key: { status: 400, title: 'Invalid Idempotency-Key' },
  invalid_signature: { status: 400, title: 'Invalid webhook signature' },
  api_key_required: { status: 401, title: 'API key required' },
  invalid_api_key: { status: 401, title: 'Invalid API key' },
  session_required: { status: 401, title: 'User session required' },
  invalid_session: { status: 401, title: 'Session ended' },
  invalid_credentials: { status: 401, title: 'Wrong email or password' },
  operator_session_required: { status: 401, title: 'Operator session required' },
  invalid_operator_session: { status: 401, title: 'Operator session ended' },
  totp_required: { status: 401, title: 'Two-factor code required' },
  totp_invalid: { status: 401, title: 'Wrong two-factor code' },
  totp_enrolment_required: { status: 403, title: 'Two-factor codes required' },
  publishable_key_not_allowed: { status: 403, title: 'Secret key required' },
  user_blocked: { status: 403, title: 'Account blocked' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  not_acceptable: { status: 406, title: 'Not acceptable' },
  request_timeout: { status: 408, title: 'Request timeout' },
  conflict: { status: 409, title: 'Conflict' },
  email_in_use: { status: 409, title: 'Email address in use' },
  last_admin: { status: 409, title: 'Last admin' },
  idempotency_request_in_progress: { status: 409, title: 'Request in progress' },
  payload_too_large: { status: 413, title: 'Request body too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  validation_failed: { status: 422, title: 'Invalid request' },
  idempotency_key_reused: { status: 422, title: 'Idempotency-Key reused' },
  link_invalid: { status: 422, title: 'Link not valid' },
  link_expired: { status: 422, title: 'Link expired' },
  link_used: { status: 422, title: 'Link already used' },
  rate_limited: { status: 429, title: 'Too many requests' },
  headers_too_large: { status: 431, title: 'Request headers too large' },
  internal_error: { status: 500, title: 'Internal server error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const satisfies Record<Exclude<DomainCode, WireAliased> | TransportCode, { status: number; title: string }>;

/** Codes only a transport meets: the method, the media types, the request's size and time. */
export type TransportCode = 'method_not_allowed' | 'not_acceptable' | 'request_timeout' | 'payload_too_large' | 'unsupported_media_type' | 'headers_too_large';

export type ProblemCode = keyof typeof PROBLEMS;

/** Domain codes answered under a transport's code: an upload that is no image is a 415, one too large a 413. */
type WireAliased = 'unsupported_image' | 'image_too_large';
const WIRE_CODES: Record<WireAliased, TransportCode> = { unsupported_image: 'unsupported_media_type', image_too_large: 'payload_too_large' };

/** The code a problem carries on the wire for a domain or transport code. */
export function wireCode(code: DomainCode | ProblemCode): ProblemCode {
  return Object.hasOwn(WIRE_CODES, code) ? WIRE_CODES[code as keyof typeof WIRE_CODES] : (code as ProblemCode);
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  errors: FieldError[];
}

export function problemOf(domainCode: DomainCode | ProblemCode, detail: string, errors: FieldError[] = []): Problem {
  const code = wireCode(domainCode);
  const { status, title } = PROBLEMS[code];
  return { type: problemType(code), title, status, detail, code, errors: listed(errors) };
}

/** A problem lists at most this many errors, then one entry saying how many more there are (docs/decisions.md). */
export const MAX_LISTED_ERRORS = 100;
/** The "… more" entries `listed` made: a list already cut is not cut again. */
const SUMMARIES = new WeakSet<FieldError>();

/**
 * The first MAX_LISTED_ERRORS errors and, when there are more, a last entry at the part of the request
 * they are in (`body`, `query`, `path`) whose `value` is how many were left out: a body of 90 000
 * unknown keys answers a few kilobytes, not megabytes.
 */
export function listed(errors: FieldError[], show: (listed: FieldError[]) => FieldError[] = (e) => e): FieldError[] {
  if (errors.length <= MAX_LISTED_ERRORS || (errors.length === MAX_LISTED_ERRORS + 1 && SUMMARIES.has(errors[MAX_LISTED_ERRORS]!))) return show(errors);
  const more = errors.length - MAX_LISTED_ERRORS;
  // located errors (`body.x`) name their part; plain field paths (`x`, located later) the input as a whole ('')
  const root = errors[MAX_LISTED_ERRORS]!.location.split('.', 1)[0]!;
  const where = ['body', 'query', 'path', 'header'].includes(root) ? root : '';
  const summary = { location: where, message: `${more} more problems are not listed (at most ${MAX_LISTED_ERRORS} are); fix these and send again.`, value: more };
  SUMMARIES.add(summary);
  return [...show(errors.slice(0, MAX_LISTED_ERRORS)), summary];
}

/** Problem types are documented in the API reference; a relative URI resolves against the API's origin. */
export function problemType(code: ProblemCode): string {
  return `/docs/problems#${code}`;
}

/** The HTTP headers an error implies: Retry-After when the domain says when to retry. */
export function problemHeaders(error: unknown): Record<string, string> {
  if (error instanceof HttpError) return error.headers;
  if (error instanceof DomainError && error.retryAfterSeconds !== undefined) return { 'Retry-After': String(error.retryAfterSeconds) };
  return {};
}

/**
 * An error the transport answers itself: one of its own refusals (405 with Allow, 415, …) or a domain
 * error on its way out through tRPC with the headers it implies (the procedures' outermost middleware
 * wraps a retry-later error so both transports send its Retry-After from the failed call's cause).
 */
export class HttpError extends Error {
  readonly code: DomainCode | ProblemCode;
  readonly errors: FieldError[];
  readonly headers: Record<string, string>;
  constructor(code: DomainCode | ProblemCode, detail: string, opts: { errors?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(detail);
    this.name = 'HttpError';
    this.code = code;
    this.errors = opts.errors ?? [];
    this.headers = opts.headers ?? {};
  }

  static of(error: DomainError): HttpError {
    return new HttpError(error.code, error.message, { errors: error.errors, headers: problemHeaders(error) });
  }
}
