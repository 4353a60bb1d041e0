import { isDatabaseUnavailable } from '@hm/db/unavailable';
import { DomainError } from '../errors.js';

/** How long a client should wait before retrying while the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The answer to a request that met the database down or restarting: 503 `service_unavailable` with
 * Retry-After (spec: "a dependency is unavailable; retry later"), never a 500. Undefined for any
 * other error. The one mapping shared by the tRPC procedures, the HTTP hooks and the console.
 */
export function unavailableError(err: unknown): DomainError | undefined {
  if (!isDatabaseUnavailable(err)) return undefined;
  return new DomainError('service_unavailable', 'The service is briefly unavailable: its database is restarting or unreachable. Retry in a few seconds.', {
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  });
}
