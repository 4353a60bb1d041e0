import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { problemHeaders, problemOf, type DomainCode, type DomainError, type Problem, type ProblemCode, type FieldError } from '@hm/contract/problems';
import { toProblem } from '@hm/contract/trpc';

export const PROBLEM_JSON = 'application/problem+json';

/** Always exactly `application/problem+json` (JSON is UTF-8 by definition; a Buffer keeps Fastify from adding a charset). */
export function sendProblem(reply: FastifyReply, problem: Problem, headers: Record<string, string> = {}) {
  return reply.code(problem.status).headers(headers).type(PROBLEM_JSON).send(Buffer.from(JSON.stringify(problem)));
}

export function problem(code: ProblemCode | DomainCode, detail: string, errors: FieldError[] = []): Problem {
  return problemOf(code, detail, errors);
}

/**
 * Refuses a request from a hook that runs before its body is read. When a body is on its way, the
 * connection is closed after the answer rather than kept alive, so Node does not read (and discard)
 * up to the body limit for a caller who was already refused.
 */
export function refuse(req: FastifyRequest, reply: FastifyReply, error: DomainError) {
  if (hasBody(req)) reply.header('Connection', 'close');
  return sendProblem(reply, problemOf(error.code, error.message, error.errors), problemHeaders(error));
}

function hasBody(req: FastifyRequest): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/** Every answer of 500 or more is logged with the request id (the logger is the request's); 4xx are the client's business. */
export function logServerError(log: FastifyBaseLogger, error: Error, message = 'unexpected error') {
  if (toProblem(error, undefined, undefined).status < 500) return;
  log.error({ err: 'cause' in error && error.cause instanceof Error ? error.cause : error }, message);
}
