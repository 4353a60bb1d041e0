import { isDatabaseUnavailable } from '@hm/db/unavailable';
import { DomainError } from './errors.js';
import { PaymentError } from './ports/payments.js';

/** How long a client should wait before retrying while the database or the payment provider is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The answer to a request that met a dependency down: the database down or restarting, or the
 * payment provider out, timing out or rate-limiting (a retryable PaymentError) — 503
 * `service_unavailable` with a retry delay (the transport's Retry-After) (spec: "a dependency is unavailable; retry later"), never a
 * 500. Undefined for any other error. The one mapping shared by the tRPC procedures, the HTTP hooks
 * and the console.
 */
export function unavailableError(err: unknown): DomainError | undefined {
  if (err instanceof PaymentError && err.retryable) {
    return new DomainError('service_unavailable', 'The payment provider is briefly unavailable; nothing was charged or kept. Retry in a few seconds.', { retryAfterSeconds: RETRY_AFTER_SECONDS });
  }
  if (!isDatabaseUnavailable(err)) return undefined;
  // the same errors come from a database restarting and from every pooled connection being busy: say both
  return new DomainError('service_unavailable', 'The service is briefly unavailable: it could not get a database connection in time (every connection busy, or the database restarting or unreachable). Retry in a few seconds.', {
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });
}
