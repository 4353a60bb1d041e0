import type { FastifyReply } from 'fastify';
import { problemOf, type Problem, type ProblemCode, type FieldError } from '@hm/domain/errors';

export const PROBLEM_JSON = 'application/problem+json';

/** Always exactly `application/problem+json` (JSON is UTF-8 by definition; a Buffer keeps Fastify from adding a charset). */
export function sendProblem(reply: FastifyReply, problem: Problem, headers: Record<string, string> = {}) {
  return reply.code(problem.status).headers(headers).type(PROBLEM_JSON).send(Buffer.from(JSON.stringify(problem)));
}

export function problem(code: ProblemCode, detail: string, errors: FieldError[] = []): Problem {
  return problemOf(code, detail, errors);
}
