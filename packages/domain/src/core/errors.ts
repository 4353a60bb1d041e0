/**
 * Every failure the domain can report, by stable code. The HTTP contract (problems.ts) maps each to
 * its status and title and adds the codes only a transport meets (405, 406, 408, 413, 415, 431); the
 * domain knows no status code and no header.
 */
export const DOMAIN_CODES = [
  'malformed_request',
  'invalid_idempotency_key',
  'invalid_signature',
  'api_key_required',
  'invalid_api_key',
  'session_required',
  'invalid_session',
  'invalid_credentials',
  // the back-office console (operators): no or an ended operator session; a two-factor code missing or wrong
  'operator_session_required',
  'invalid_operator_session',
  'totp_required',
  'totp_invalid',
  'totp_enrolment_required',
  'publishable_key_not_allowed',
  'user_blocked',
  'forbidden',
  'not_found',
  'conflict',
  'email_in_use',
  // the back office: the marketplace's last admin can be neither demoted nor removed
  'last_admin',
  'idempotency_request_in_progress',
  'validation_failed',
  'idempotency_key_reused',
  'link_invalid',
  'link_expired',
  'link_used',
  'rate_limited',
  // bytes that are no JPEG, PNG or WebP image; an image over the size limit
  'unsupported_image',
  'image_too_large',
  'internal_error',
  'service_unavailable',
] as const;

export type DomainCode = (typeof DOMAIN_CODES)[number];

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

export class DomainError extends Error {
  readonly code: DomainCode;
  readonly errors: FieldError[];
  /** when a retry may succeed (rate limits, a dependency down); the transport turns it into Retry-After */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: DomainCode, detail: string, opts: { errors?: FieldError[]; retryAfterSeconds?: number } = {}) {
    super(detail);
    this.name = 'DomainError';
    this.code = code;
    this.errors = opts.errors ?? [];
    this.retryAfterSeconds = opts.retryAfterSeconds;
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
