import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { requestBodyValidator, surfaceOf, validateResponse } from '../openapi-validator.js';
import { excerpt, type Case } from './cases.js';
import type { Operation, Req } from './operations.js';
import type { Res } from './transport.js';

/** The server's error log lines by request id (the cause of a 500, for the report). */
export type ErrorLog = Map<string, string>;

/** A Fastify logger option that keeps the error lines in `log`. */
export function errorLogger(log: ErrorLog) {
  return {
    level: 'error',
    stream: {
      write(line: string) {
        const entry = JSON.parse(line) as { reqId?: string; msg?: string; err?: { message?: string } };
        if (entry.reqId) log.set(entry.reqId, `${entry.msg ?? ''}: ${entry.err?.message ?? ''}`.replace(/\s+/g, ' '));
      },
    },
  };
}

/** What is wrong with one response; at most one per response (the first that applies). */
export type FailureKind = '5xx' | 'no-response' | 'not-a-problem' | 'problem-members' | 'problem-status' | 'not-in-openapi' | 'accepted-invalid';

export interface Failure {
  caseIndex: number;
  c: Case;
  req: Req;
  status: number;
  kind: FailureKind;
  /** what came back, short and with ids masked so equal failures group together */
  what: string;
}

/** `body`, `body.price.amount`, `query.limit`, `path.id`, `header.Idempotency-Key` */
const LOCATION = /^(body|query|path|header)(\.|$)/;

const PROBLEM_MEMBERS = { type: 'string', title: 'string', status: 'number', detail: 'string', code: 'string' } as const;

/** Ids, quoted URLs, long numbers and long runs vary between equal failures: mask them before grouping. */
export function mask(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/req_[0-9a-f]{32}/g, '<request-id>')
    .replace(/'\/[^']*'/g, "'<url>'")
    .replace(/(.)\1{15,}/g, '$1…')
    .replace(/\d{5,}/g, '<n>');
}

/** The first `n` characters, without the length of the rest (equal failures must print equal). */
const clip = (text: string, n: number) => (text.length <= n ? text : `${text.slice(0, n)}…`);

function shim(res: Res): LightMyRequestResponse {
  return { statusCode: res.status, headers: res.headers, body: res.body, payload: res.body, json: () => JSON.parse(res.body) } as unknown as LightMyRequestResponse;
}

/**
 * The fuzz contract for one response: never 5xx; every 4xx an RFC 9457 problem whose `status` is
 * the HTTP status; every /v1 and /console/v1 response (2xx too) as its published document says.
 */
export async function checkResponse(app: FastifyInstance, op: Operation | undefined, req: Req, res: Res, errorLog: ErrorLog): Promise<{ kind: FailureKind; what: string } | undefined> {
  const type = String(res.headers['content-type'] ?? '').split(';')[0]!.trim();
  const body = res.body;
  if (res.status >= 500) {
    const logged = errorLog.get(String(res.headers['request-id']));
    return { kind: '5xx', what: `${describe(type, body)}; ${logged ? `logged: ${clip(mask(logged), 90)}` : 'NOT LOGGED with its request id'}` };
  }
  if (res.status >= 400 && req.method !== 'HEAD') {
    if (type !== 'application/problem+json') return { kind: 'not-a-problem', what: describe(type, body) };
    let problem: Record<string, unknown>;
    try {
      problem = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return { kind: 'problem-members', what: `not JSON: ${clip(excerpt(mask(body), Infinity), 80)}` };
    }
    const missing = Object.entries(PROBLEM_MEMBERS).filter(([k, t]) => typeof problem[k] !== t);
    if (missing.length) return { kind: 'problem-members', what: `missing ${missing.map(([k]) => k).join(', ')}: ${describe(type, body)}` };
    if (problem.status !== res.status) return { kind: 'problem-status', what: `status member ${String(problem.status)} (${String(problem.code)})` };
    // a refused input lists where: every error names a location in the request (`body.title`, `query.limit`, `path.id`, `header.…`)
    if (problem.code === 'validation_failed') {
      const errors = Array.isArray(problem.errors) ? (problem.errors as { location?: unknown }[]) : [];
      const unplaced = errors.filter((e) => typeof e?.location !== 'string' || !LOCATION.test(e.location));
      if (errors.length === 0 || unplaced.length) return { kind: 'problem-members', what: `validation_failed without ${errors.length ? `a location (${clip(JSON.stringify(unplaced[0]), 60)})` : 'errors'}` };
    }
  }
  if (/^\/(console\/)?v1\//.test(req.url) && !/^\/(console\/)?v1\/openapi\.json/.test(req.url) && req.method !== 'HEAD' && !req.bytes) {
    try {
      await validateResponse(app, req.method, req.url, shim(res));
    } catch (e) {
      // "<METHOD> <template> does not document status 422: <body>" → the part that is the same for every operation
      const message = (e as Error).message.split('\n')[0]!.replace(/^[A-Z]+ \S+ /, '').replace(/: \{.*$/, '');
      return { kind: 'not-in-openapi', what: `${clip(mask(message), 110)} [${describe(type, body)}]` };
    }
  }
  const refused = await documentRefuses(app, op, req);
  if (refused.length && res.status < 300) return { kind: 'accepted-invalid', what: `${res.status}: the document refuses ${refused.join(', ')}` };
  const problem = res.status === 422 ? (JSON.parse(body) as { code?: string; errors?: { location?: string }[] }) : undefined;
  if (refused.length && problem?.code === 'validation_failed') {
    const theirs = (problem.errors ?? []).map((x) => String(x.location));
    const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
    if (!theirs.some((t) => refused.some((r) => related(t, r.split(' ')[0]!)))) {
      return { kind: 'accepted-invalid', what: `422 about ${theirs.join(', ') || 'nothing'}, but the document refuses ${refused.join(', ')}` };
    }
  }
  return undefined;
}

/**
 * Where the document's schema refuses the JSON body sent (`body.x (reason)`), or nothing when it
 * accepts it, or when the check does not apply (another method, no JSON, unparsable JSON: a 400).
 */
async function documentRefuses(app: FastifyInstance, op: Operation | undefined, req: Req): Promise<string[]> {
  if (!op?.body?.schema || req.method !== op.method || req.bytes || req.payload === undefined) return [];
  if (!/^application\/json\s*(;|$)/i.test(String(req.headers['content-type'] ?? ''))) return [];
  let body: unknown;
  try {
    body = JSON.parse(Buffer.isBuffer(req.payload) ? req.payload.toString('utf8') : req.payload);
  } catch {
    return [];
  }
  const validate = await requestBodyValidator(app, op.method, op.template, surfaceOf(op.base));
  if (!validate || validate(body)) return [];
  return [
    ...new Set(
      (validate.errors ?? []).map((e) => {
        const extra = (e.params as { additionalProperty?: string; missingProperty?: string }).additionalProperty ?? (e.params as { missingProperty?: string }).missingProperty;
        const path = ['body', ...e.instancePath.split('/').slice(1), ...(extra ? [extra] : [])].join('.');
        return `${path} (${e.message})`;
      }),
    ),
  ].slice(0, 3);
}

/** A short description of a body that is the same for equal failures: its code or error and message, else its first characters. */
export function describe(type: string, body: string): string {
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    const parts = ['code', 'error', 'message'].filter((k) => typeof json[k] === 'string').map((k) => `${k}=${clip(mask(String(json[k])), 60)}`);
    if (parts.length) return `${type || 'no content-type'} {${parts.join(', ')}}`;
  } catch {
    // not JSON: show the text
  }
  return `${type || 'no content-type'} ${clip(excerpt(mask(body), Infinity), 70)}`;
}
