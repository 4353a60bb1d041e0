import { PROBLEMS } from '@hm/contract/problems';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What each error status means on every operation; each is a `Problem<status>` response component. */
const ERROR_STATUSES: Record<number, string> = {
  400: 'Malformed request: bad JSON, JSON nested deeper than 32 levels, a bad Idempotency-Key, or a URL that is not valid percent-encoding.',
  401: 'No API key, a key that does not work, or an ended user session.',
  403: 'This key or user may not do this (e.g. a publishable key on a secret-key endpoint).',
  404: "Not found, or not yours (other marketplaces' and users' things answer 404 too).",
  408: 'The request body did not arrive in full within 60 seconds.',
  409: 'Not possible in the current state, or a request with this Idempotency-Key is still running.',
  413: 'Request body too large.',
  415: 'Unsupported content type: send application/json.',
  422: 'Invalid input (a malformed path id, an unknown query parameter, a NUL character in any string …): every problem is listed in `errors`; or an Idempotency-Key reused for another request.',
  429: 'Too many attempts; wait `Retry-After` seconds.',
  500: 'Unexpected error on our side; logged with the request id.',
  503: 'A dependency (the database, payments) is unavailable for a moment; retry after `Retry-After` seconds.',
};

const problemSchema = {
  type: 'object',
  description: 'RFC 9457 problem details.',
  required: ['type', 'title', 'status', 'detail', 'code', 'errors'],
  properties: {
    type: { type: 'string', description: 'URI reference documenting this problem type.' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string', description: 'Written to be shown to people.' },
    code: { type: 'string', enum: Object.keys(PROBLEMS), description: 'Stable machine-readable code.' },
    errors: {
      type: 'array',
      description:
        'Every validation problem at once, up to 100; when there are more, a 101st and last entry at the part of the request they are in (`location` `body`, `query` or `path`) says how many were left out: `message` "<n> more problems are not listed …" and `value` the number n.',
      maxItems: 101,
      items: {
        type: 'object',
        required: ['location', 'message', 'value'],
        properties: {
          location: { type: 'string', description: '`body.<field>`, `query.<name>`, `path.<name>` or `header.<name>`.' },
          message: { type: 'string' },
          value: { description: 'The value sent (null when missing).' },
        },
      },
    },
  },
};

/** The Problem schema and one `Problem<status>` response per error status, for operations to refer to. */
export function addProblemComponents(doc: Json) {
  doc.components.schemas.Problem = problemSchema;
  doc.components.responses = Object.fromEntries(
    Object.entries(ERROR_STATUSES).map(([status, description]) => [
      `Problem${status}`,
      {
        description,
        ...(status === '429' || status === '503' ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } } } } : {}),
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      },
    ]),
  );
}

/** `$ref`s to the problem responses of these statuses. */
export const problemResponses = (statuses: number[]): Json => Object.fromEntries(statuses.map((s) => [String(s), { $ref: `#/components/responses/Problem${s}` }]));
