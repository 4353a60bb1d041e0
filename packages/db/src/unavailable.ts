/**
 * Whether an error means "the database cannot be reached right now" (down, restarting, refusing
 * connections, out of connection slots, or no free pooled connection in time) rather than a bug or a
 * bad query. Callers answer 503 with Retry-After for these and carry on: the pools reconnect by
 * themselves once the server is back. Errors are walked through `cause` (the ORM and tRPC wrap them).
 */
const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: the server is stopping
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or recovering
  '53300', // too_many_connections
]);

// pg reports some of these without a code (a socket closed under a client, the pool's connect timeout)
const MESSAGES = [/^Connection terminated/i, /connection error and is not queryable/i, /timeout exceeded when trying to connect/i, /^Client was closed and is not queryable/i];

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    // SQLSTATE class 08: connection exceptions
    if (typeof code === 'string' && (CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    // a host with several addresses fails with one error per address
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
    if (MESSAGES.some((m) => m.test(e.message))) return true;
  }
  return false;
}
