import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** On every response, including errors written before a request exists: no MIME sniffing of API bodies. */
export const SECURITY_HEADERS = { 'X-Content-Type-Options': 'nosniff' } as const;

export function newRequestId(): string {
  return `req_${randomUUID().replaceAll('-', '')}`;
}

/** Every response says which request it answers and carries the security headers. */
export function addResponseHeaders(app: FastifyInstance) {
  // a callback hook: every request passes here (an async hook costs a promise and a turn each)
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('Request-Id', req.id).headers(SECURITY_HEADERS);
    done();
  });
}
