import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, HttpError, type Problem, type ProblemCode } from '@hm/contract/problems';
import { problem, sendProblem, PROBLEM_JSON } from './problem.js';
import { newRequestId, SECURITY_HEADERS } from './security-headers.js';

/**
 * Errors that happen outside the router: Fastify's own (bad JSON, 413, 415, a URL that is not
 * percent-encoding) and Node's before a request exists (a slow body, an oversized head, bytes that
 * are not HTTP). All of them answer problems, like everything else.
 */
const FASTIFY_CODES: Record<string, ProblemCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'malformed_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_request',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_request',
  FST_ERR_BAD_URL: 'malformed_request',
  FST_ERR_MAX_PARAM_LENGTH: 'not_found',
};

export function fastifyErrorToProblem(err: FastifyError | DomainError | HttpError): Problem {
  if (err instanceof DomainError || err instanceof HttpError) return problem(err.code, err.message, err.errors);
  const code = err.code ? FASTIFY_CODES[err.code] : undefined;
  if (code === 'unsupported_media_type') return problem(code, 'Send the request body as application/json.');
  if (code === 'payload_too_large') return problem(code, 'The request body is larger than this endpoint accepts.');
  if (err.code === 'FST_ERR_BAD_URL') return problem('malformed_request', 'The URL is not valid percent-encoded UTF-8.');
  if (code === 'not_found') return problem(code, 'No endpoint has a path segment that long.');
  if (code) return problem(code, err.message);
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return problem('malformed_request', err.message);
  return problem('internal_error', 'Something went wrong on our side. Retry later; if it persists, contact support with the Request-Id.');
}

/** /trpc clients read errors inside the tRPC envelope; everything else gets the bare problem. */
export function sendFor(url: string, reply: FastifyReply, p: Problem, headers: Record<string, string> = {}) {
  if (url.startsWith('/trpc') || url.startsWith('/console/trpc')) {
    return reply
      .code(p.status)
      .headers(headers)
      .type('application/json')
      .send(JSON.stringify({ error: { message: p.detail, code: -32600, data: { code: p.code, httpStatus: p.status, problem: p } } }));
  }
  return sendProblem(reply, p, headers);
}

/**
 * The error of a body the client stopped sending: Node ends the request's stream with ECONNRESET
 * ("aborted") when the connection closes before the whole body arrived. The same code from the
 * database comes after the body is complete, so the two are not confused.
 */
export function clientAborted(err: { code?: string }, raw: IncomingMessage): boolean {
  return err.code === 'ECONNRESET' && !raw.complete;
}

/** Fastify's `frameworkErrors`: routing failed before any hook ran, so the usual headers are set here. */
export function frameworkErrors(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const p = fastifyErrorToProblem(error);
  if (p.status >= 500) req.log.error({ err: error }, 'routing failed');
  return sendFor(req.url, reply.headers(SECURITY_HEADERS).header('Request-Id', req.id), p);
}

/**
 * Node's `clientError`: the connection gets one problem written straight to the socket, then closes
 * (there is no request to answer through Fastify: its head was too large, it is not HTTP, or its
 * body stopped arriving within the request timeout).
 */
export function clientErrorHandler(requestTimeoutMs: number) {
  return function (this: FastifyInstance, err: Error & { code?: string }, socket: Socket) {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const p =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? problem('request_timeout', `The request did not arrive in full within ${requestTimeoutMs / 1000} seconds. Send the whole body at once, or faster.`)
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? problem('headers_too_large', 'The URL and headers together are larger than 16 KB. Send long input in a request body.')
          : problem('malformed_request', 'This is not a valid HTTP/1.1 request.');
    const id = newRequestId();
    this.log.info({ reqId: id, err, status: p.status }, 'client error');
    // Only when no response has started on this connection (Node does the same).
    const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !current?.headersSent) {
      const body = JSON.stringify(p);
      const head = { 'Content-Type': PROBLEM_JSON, 'Content-Length': String(Buffer.byteLength(body)), 'Request-Id': id, Connection: 'close', ...SECURITY_HEADERS };
      socket.write(`HTTP/1.1 ${p.status} ${STATUS_CODES[p.status]}\r\n${Object.entries(head).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`);
    }
    socket.destroy();
  };
}
