import { generateOpenApiDocument } from 'trpc-to-openapi';
import type { AnyTRPCRouter } from '@trpc/server';
import type { Meta } from '@hm/contract/trpc';
import { restRoutes } from '@hm/rest';
import { eventTypesOf } from '@hm/domain/payments';
import { openResponses } from './openapi-responses.js';
import { addProblemComponents, problemResponses as problems } from './openapi-problems.js';
import { CONSOLE_DESCRIPTION, CONSOLE_SECURITY_SCHEMES, addConsoleRawRoutes } from './openapi-console.js';
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from './http/rest.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DESCRIPTION = `REST API of the headless marketplace. Call it from your storefront's server.

**Authentication.** Send \`Authorization: Bearer <key>\`. Secret keys (\`sk_test_…\`, \`sk_live_…\`) may do everything a storefront does; publishable keys (\`pk_…\`) read public data only (marketplace, listings, search, categories, catalogue terms, locations, content pages). Requests for a signed-in user also send \`X-User-Session\`.

**Client IP.** A storefront's server may send the shopper's IP address as it saw it in \`X-Client-IP\` (with the secret key only; ignored with a publishable key) on sign-in, sign-in link and password reset requests. Besides the per-address limits, one client address may then have 30 wrong passwords per 15 minutes and 15 emailed sign-in or reset links per hour (an IPv6 address counts as its /64), then 429 with \`Retry-After\`; without the header nothing is counted per address.

**Errors** are RFC 9457 problems (\`application/problem+json\`) with \`type\`, \`title\`, \`status\`, \`detail\`, \`code\` and \`errors[]\` (every invalid field at once, up to 100 and then one entry counting the rest, with \`location\`, \`message\`, \`value\`). See [problem types](/docs/problems).

**Idempotency.** Send \`Idempotency-Key: <uuid>\` on POST, PUT, PATCH and DELETE. A retry with the same key and request replays the first response with \`Idempotent-Replayed: true\`; keys last 24 hours and are scoped to the API key and user session.

**Versioning.** Within v1 changes only add things; ignore fields you do not know.`;

/** No open-source license: the API and this document are the operator's (docs/decisions.md). */
const LICENSE = { name: 'Proprietary: for use with this marketplace service', identifier: 'LicenseRef-Proprietary' };

/** The operations that count per client IP when `X-Client-IP` is sent (http/client-ip.ts). */
const CLIENT_IP_OPERATIONS = new Set(['signIn', 'sendSignInLink', 'requestPasswordReset']);

/** The published OpenAPI 3.1 documents (/v1, and the back office's /console/v1): generated from the router, then given real statuses, problems and security. */
export function buildOpenApiDocument(router: AnyTRPCRouter, opts: { serverUrl: string; version: string; surface?: 'console' }): Json {
  const backOffice = opts.surface === 'console';
  const doc = generateOpenApiDocument(router, {
    title: backOffice ? 'Headless Marketplace back office API' : 'Headless Marketplace API',
    description: backOffice ? CONSOLE_DESCRIPTION : DESCRIPTION,
    version: opts.version,
    baseUrl: `${opts.serverUrl}${backOffice ? '/console/v1' : '/v1'}`,
    securitySchemes: backOffice
      ? CONSOLE_SECURITY_SCHEMES
      : {
          secretKey: { type: 'http', scheme: 'bearer', description: 'Secret key `sk_test_…` / `sk_live_…`, from your server only.' },
          publishableKey: { type: 'http', scheme: 'bearer', description: 'Publishable key `pk_test_…` / `pk_live_…`: public data only.' },
          userSession: { type: 'apiKey', in: 'header', name: 'X-User-Session', description: 'Session token of the signed-in user, with the secret key.' },
        },
  }) as Json;

  doc.info.license = LICENSE;
  // trpc-to-openapi's own error bodies: every error here is a Problem (responses below), so nothing refers to them
  doc.components.schemas = Object.fromEntries(Object.entries(doc.components.schemas ?? {}).filter(([name]) => !name.startsWith('error.')));
  addProblemComponents(doc);
  doc.components.headers = {
    RequestId: { description: 'Unique id of this request; quote it to support.', schema: { type: 'string' } },
    ETag: { description: 'A strong entity tag of this answer: send it back as `If-None-Match` to get `304 Not Modified` while it has not changed.', schema: { type: 'string' } },
    CacheControl: {
      description: `How the answer may be kept: \`${PUBLIC_CACHE_CONTROL}\` for public data (the same for every caller with a key of the marketplace; \`Vary: Authorization\`), \`${PRIVATE_CACHE_CONTROL}\` for anything read with a user session or a secret-key-only operation.`,
      schema: { type: 'string' },
    },
    IdempotentReplayed: { description: '`true` when this is the stored response to an earlier request with the same Idempotency-Key.', schema: { type: 'string', enum: ['true'] } },
  };
  doc.components.parameters = {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'A UUID per user action; retries with the same key replay the first response.',
      schema: { type: 'string', format: 'uuid' },
    },
    IfNoneMatch: {
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'The `ETag` of an answer you kept: `304 Not Modified` (no body) while the answer is still the same, else the full answer with its new `ETag`.',
      schema: { type: 'string', maxLength: 1000 },
    },
    ClientIp: {
      name: 'X-Client-IP',
      in: 'header',
      required: false,
      description:
        'The shopper\'s IP address as your server saw it (one IPv4 or IPv6 address; 400 otherwise). Taken only with the secret key. One address may have 30 wrong passwords per 15 minutes and 15 emailed sign-in or reset links per hour (an IPv6 address counts as its /64), then 429 with `Retry-After`, so one source cannot lock out many accounts.',
      schema: { type: 'string', maxLength: 45, examples: ['203.0.113.7'] },
    },
  };

  for (const route of restRoutes<Meta>(router)) {
    const op = doc.paths[route.path]?.[route.method.toLowerCase()];
    if (!op) continue;
    const meta = route.meta;
    const mutating = route.method !== 'GET';
    op.security = { none: [], key: [{ secretKey: [] }, { publishableKey: [] }], secret: [{ secretKey: [] }], session: [{ secretKey: [], userSession: [] }], operator: [{ operatorSession: [] }, { consoleCookie: [] }] }[meta.auth];
    if (meta.optionalSession) op.security = [...op.security, { secretKey: [], userSession: [] }];
    if (mutating) op.parameters = [...(op.parameters ?? []), { $ref: '#/components/parameters/IdempotencyKey' }];
    else op.parameters = [...(op.parameters ?? []), { $ref: '#/components/parameters/IfNoneMatch' }];
    if (CLIENT_IP_OPERATIONS.has(op.operationId)) op.parameters = [...(op.parameters ?? []), { $ref: '#/components/parameters/ClientIp' }];
    const body = op.requestBody?.content?.['application/json'];
    if (body && Object.keys(body.schema?.properties ?? {}).length === 0) delete op.requestBody; // no input (an empty JSON object is still accepted)
    else if (body && !body.schema?.required?.length) op.requestBody.required = false; // every field optional: no body is fine too
    if (body && op.requestBody && meta.requestExample) body.example = meta.requestExample;
    if (route.path.startsWith('/test-helpers/')) op['x-test-only'] = true;

    const success = op.responses['200'];
    const status = String(meta.successStatus ?? 200);
    const headers: Json = {
      'Request-Id': { $ref: '#/components/headers/RequestId' },
      ...(mutating ? { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } } : { ETag: { $ref: '#/components/headers/ETag' }, 'Cache-Control': { $ref: '#/components/headers/CacheControl' } }),
      ...Object.fromEntries(Object.entries(meta.headers ?? {}).map(([name, value]) => [name, { description: `Always \`${value}\`.`, schema: { type: 'string', const: value } }])),
    };
    const responses: Json = {};
    const bodiless = status === '204' || (status === '202' && !success?.content?.['application/json']?.schema?.type && !success?.content?.['application/json']?.schema?.$ref);
    responses[status] = bodiless ? { description: status === '202' ? 'Accepted (no body)' : 'No content', headers } : { ...success, headers };
    if (!mutating) responses['304'] = { description: 'Not modified: `If-None-Match` named the current `ETag`. No body.', headers: { 'Request-Id': headers['Request-Id'], ETag: headers.ETag, 'Cache-Control': headers['Cache-Control'] } };
    const json = responses[status].content?.['application/json'];
    if (json && meta.responseExamples) json.examples = meta.responseExamples;

    // Every operation refuses a URL that is not percent-encoding (400) and unknown or NUL query
    // parameters (422), besides malformed path ids and bodies; any may meet a database outage (503).
    const errors = new Set<number>([400, 404, 422, 500, 503]);
    if (meta.auth !== 'none') errors.add(401);
    if (meta.auth === 'secret' || meta.auth === 'session' || meta.write) errors.add(403);
    if (meta.auth === 'none' && backOffice) errors.add(401); // sign-in: wrong credentials or code
    // back office: a cookie-authenticated change from another Origin, and (live) an admin who has not turned on two-factor codes
    if (backOffice && (mutating || (meta.auth === 'operator' && !meta.enrolment))) errors.add(403);
    for (const s of meta.problems ?? []) errors.add(s);
    if (mutating) [408, 409, 413, 415].forEach((s) => errors.add(s));
    Object.assign(responses, problems([...errors].sort()));
    op.responses = responses;
  }
  if (!backOffice) addRawRoutes(doc, opts.serverUrl);
  else addConsoleRawRoutes(doc);
  return openResponses(doc);
}

/** The routes that are not JSON procedures (see http/uploads.ts and http/stripe-webhook.ts). */
function addRawRoutes(doc: Json, serverUrl: string) {
  const requestId = { 'Request-Id': { $ref: '#/components/headers/RequestId' } };
  doc.paths['/me/listings/{id}/images'] = {
    post: {
      operationId: 'uploadListingImage',
      tags: ['Seller listings'],
      summary: 'Upload a photo',
      description:
        'The request body is the image itself: JPEG, PNG or WebP (the type is read from the bytes, not from Content-Type). Up to 20 MiB (413 beyond, refused before the body is read) and 50 megapixels (422; checked from the header, so decompression bombs cost nothing); each side at least 200 pixels and the longer side at most 5 times the shorter (422: a 1×8000 sliver or a 1×1 dot is not a photo); a file cut off before the end of its image (JPEG end marker, PNG `IEND`, WebP length) is 422 too, every problem listed in `errors`. At most 20 photos per listing (409). Answers 202 with the image `processing`; the sizes are made in the background and the image becomes `ready`, or `failed` with a `failure_reason` for the seller (in their own listing views). A photo deleted while it is processing is never served.',
      security: [{ secretKey: [], userSession: [] }],
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        { $ref: '#/components/parameters/IdempotencyKey' },
      ],
      requestBody: {
        required: true,
        content: {
          'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } },
          'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
          'image/webp': { schema: { type: 'string', contentMediaType: 'image/webp' } },
          'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
        },
      },
      responses: {
        '202': { description: 'Accepted: the photo is being processed.', headers: { ...requestId, 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } }, content: { 'application/json': { schema: { $ref: '#/components/schemas/Image' } } } },
        ...problems([400, 401, 403, 404, 408, 409, 413, 415, 422, 500, 503]),
      },
    },
  };
  // image files: no key; immutable, so cached for a year, with ETag / If-None-Match
  const imageFiles = (operationId: string, tag: string, summary: string, description: string, files: string[], sizes: string) => ({
    get: {
      operationId,
      tags: [tag],
      summary,
      description: `${description} No key needed. Immutable: cache for a year (\`Cache-Control: public, max-age=31536000, immutable\`); \`ETag\` and \`If-None-Match\` (304) supported.`,
      security: [],
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        { name: 'file', in: 'path', required: true, schema: { type: 'string', enum: files } },
        { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
      ],
      responses: {
        '200': {
          description: `The JPEG bytes${sizes}.`,
          headers: { ...requestId, ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string' } } },
          content: { 'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } } },
        },
        '304': { description: 'Not modified (If-None-Match matched).' },
        ...problems([400, 404, 500, 503]),
      },
    },
  });
  doc.paths['/images/{id}/{file}'] = imageFiles('getListingImageFile', 'Images', 'A photo size', 'A listing photo.', ['thumb.jpg', 'medium.jpg', 'large.jpg'], '');
  doc.paths['/media/{id}/{file}'] = imageFiles(
    'getMediaFile',
    'Content pages',
    'A marketplace image size',
    'Images uploaded for content pages (ImageRef `urls`).',
    ['thumb.jpg', 'medium.jpg', 'large.jpg', 'xlarge.jpg'],
    ': thumb 400 px square, medium 800, large 1600, xlarge 2400 (never enlarged)',
  );
  const stripeWebhook = (operationId: string, summary: string, description: string) => ({
    // not under /v1: Stripe calls it, with its signature instead of an API key
    servers: [{ url: serverUrl }],
    post: {
      // called by Stripe, never by a storefront: marked so that generated clients and public docs can leave it out
      'x-internal': true,
      operationId,
      tags: ['Webhooks'],
      summary,
      description: `${description} Not for storefronts. The body is verified byte for byte against the \`Stripe-Signature\` header with the endpoint's signing secret (400 when the header is missing or does not match, or is older than 5 minutes), then stored once by the event's id and handled in the background; a repeated delivery answers 200 and changes nothing, as does an event type the service does not act on. Bodies up to 256 KiB. \`npm run console -- doctor\` checks that both endpoints are registered in Stripe.`,
      security: [],
      parameters: [{ name: 'Stripe-Signature', in: 'header', required: true, schema: { type: 'string' }, description: '`t=<unix time>,v1=<HMAC-SHA256 of "t.body" with the endpoint secret>`' }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              description: 'A Stripe Event object.',
              required: ['id', 'type', 'data'],
              properties: { id: { type: 'string' }, type: { type: 'string' }, created: { type: 'integer' }, data: { type: 'object', description: 'The event’s object, in Stripe’s shape.', additionalProperties: true } },
            },
            example: { id: 'evt_3Qk8xY2eZvKYlo2C0a1b2c3d', type: 'payment_intent.succeeded', created: 1795514400, data: { object: { id: 'pi_3Qk8xY2eZvKYlo2C1d2e3f4g', object: 'payment_intent', status: 'succeeded' } } },
          },
        },
      },
      responses: {
        '200': {
          description: 'Received (stored now, or earlier: `duplicate`).',
          headers: requestId,
          content: { 'application/json': { schema: { type: 'object', required: ['received', 'duplicate'], properties: { received: { type: 'boolean', const: true }, duplicate: { type: 'boolean' } } } } },
        },
        ...problems([400, 404, 408, 413, 500, 503]),
      },
    },
  });
  doc.paths['/webhooks/stripe'] = stripeWebhook(
    'receiveStripeEvent',
    "Stripe's event deliveries: the platform's events",
    `The platform endpoint to register in Stripe for this deployment, signed with \`STRIPE_WEBHOOK_SECRET\`, for the platform's own events: ${eventList('platform')}. An event of a connected account (with \`account\`) is refused with 400: it belongs to /webhooks/stripe/connect. 404 when Stripe is not configured.`,
  );
  doc.paths['/webhooks/stripe/connect'] = stripeWebhook(
    'receiveStripeConnectEvent',
    "Stripe's event deliveries: connected accounts' events",
    `The Connect endpoint to register in Stripe (\`connect: true\`, "events on Connected accounts"), signed with its own \`STRIPE_CONNECT_WEBHOOK_SECRET\`, for the sellers' connected accounts: ${eventList('connect')}. Every event here names its connected account (\`account\`); one that does not (a platform event) is refused with 400. 404 when \`STRIPE_CONNECT_WEBHOOK_SECRET\` is not set.`,
  );
}

const eventList = (endpoint: 'platform' | 'connect') =>
  eventTypesOf(endpoint)
    .map((type) => `\`${type}\``)
    .join(', ');
