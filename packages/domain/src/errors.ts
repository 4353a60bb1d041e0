/**
 * Every failure the API can answer, by stable code. One table maps a code to its HTTP status and
 * title; the tRPC error formatter and the HTTP layer turn a DomainError into an RFC 9457 problem.
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
  publishable_key_not_allowed: { status: 403, title: 'Secret key required' },
  user_blocked: { status: 403, title: 'Account blocked' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  not_acceptable: { status: 406, title: 'Not acceptable' },
  request_timeout: { status: 408, title: 'Request timeout' },
  conflict: { status: 409, title: 'Conflict' },
  email_in_use: { status: 409, title: 'Email address in use' },
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
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEMS;

export interface FieldError {
  /**
   * Where the invalid value is. Domain code gives the plain path within its input (`email`,
   * `price.amount`, `` for the input as a whole); the transport prefixes where it received it
   * (`body.`, `query.`, `path.` on HTTP; `flag.`, `file.` in the console).
   */
  location: string;
  message: string;
  value: unknown;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  errors: FieldError[];
}

export class DomainError extends Error {
  readonly code: ProblemCode;
  readonly errors: FieldError[];
  /** extra response headers, e.g. Retry-After */
  readonly headers: Record<string, string>;

  constructor(code: ProblemCode, detail: string, opts: { errors?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(detail);
    this.name = 'DomainError';
    this.code = code;
    this.errors = opts.errors ?? [];
    this.headers = opts.headers ?? {};
  }

  get status(): number {
    return PROBLEMS[this.code].status;
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string) {
    super('not_found', `${what} was not found.`);
  }
}

export class ValidationError extends DomainError {
  constructor(errors: FieldError[], detail?: string) {
    super('validation_failed', detail ?? describeErrors(errors), { errors });
  }
}

export class ConflictError extends DomainError {
  constructor(detail: string) {
    super('conflict', detail);
  }
}

export function describeErrors(errors: FieldError[]): string {
  if (errors.length === 0) return 'The request is not valid.';
  if (errors.length === 1) return `${errors[0]!.location}: ${errors[0]!.message}`;
  return `The request has ${errors.length} problems; see errors.`;
}

export function problemOf(code: ProblemCode, detail: string, errors: FieldError[] = []): Problem {
  const { status, title } = PROBLEMS[code];
  return { type: problemType(code), title, status, detail, code, errors };
}

/** Problem types are documented in the API reference; a relative URI resolves against the API's origin. */
export function problemType(code: ProblemCode): string {
  return `/docs/problems#${code}`;
}
