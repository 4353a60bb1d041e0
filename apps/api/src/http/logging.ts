import type { FastifyRequest } from 'fastify';

const REDACTED = '[redacted]';
/** Headers that carry keys, sessions or signatures. */
const SECRET_HEADERS = ['req.headers.authorization', 'req.headers["x-user-session"]', 'req.headers["stripe-signature"]'];
/** `/v1` query parameters that carry one-time tokens (page previews) or someone's address (the test mailbox). */
const SECRET_QUERY_PARAMETERS = new Set(['token', 'to', 'email']);

/**
 * A request URL fit for the log: a tRPC query's whole `input` (JSON in the URL: preview tokens,
 * addresses, whatever a procedure takes) and the `/v1` query parameters above become `[redacted]`.
 * A URL that cannot be parsed is logged as its path alone.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const path = url.slice(0, q);
  const trpc = path.startsWith('/trpc/');
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq === -1) return part;
      let name: string;
      try {
        name = decodeURIComponent(part.slice(0, eq).replaceAll('+', ' '));
      } catch {
        return `${part.slice(0, eq)}=${REDACTED}`;
      }
      return (trpc && name === 'input') || SECRET_QUERY_PARAMETERS.has(name) ? `${part.slice(0, eq)}=${REDACTED}` : part;
    });
  return `${path}?${parts.join('&')}`;
}

/** The API's pino options: `LOG_LEVEL`, secret headers and the secret parts of URLs redacted (README: "tokens are redacted"). */
export function apiLogger(level: string) {
  return {
    level,
    redact: { paths: SECRET_HEADERS, censor: REDACTED },
    serializers: {
      req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
    },
  };
}
