/** The back office's document (/console/v1): its description, security schemes and the routes that are not JSON procedures. */
import { problemResponses as problems } from './openapi-problems.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const CONSOLE_DESCRIPTION = `The back office's API: the marketplace team (operators) works every queue here. Not for storefronts: none of it is under /v1, and API keys do not work here.

**Authentication.** Sign in with \`POST /console/v1/sessions\` (or accept an invitation) and send the token as \`Authorization: Bearer ops_…\`. The back-office app uses the httpOnly cookie set by the same calls instead; a change made with the cookie must come from the app's Origin. Sessions end 12 hours after last use and 7 days after sign-in.

**Roles.** \`admin\` may do everything; \`viewer\` reads everything of its marketplace and gets 403 on every change. Another marketplace's ids answer 404.

**Audit.** Every change and every sign-in (success and failure) leaves one row in the audit trail (\`GET /console/v1/audit\`), the input without secrets.

**Errors** are RFC 9457 problems, as on /v1.`;

export const CONSOLE_SECURITY_SCHEMES = {
  operatorSession: { type: 'http', scheme: 'bearer', description: 'Operator session token `ops_…` from POST /console/v1/sessions.' },
  consoleCookie: { type: 'apiKey', in: 'cookie', name: 'hm_console', description: 'The back-office app’s session cookie (writes must come from its Origin).' },
} as const;

/** The back office's routes that are not JSON procedures (see http/console-files.ts). */
export function addConsoleRawRoutes(doc: Json) {
  const requestId = { 'Request-Id': { $ref: '#/components/headers/RequestId' } };
  const security = [{ operatorSession: [] }, { consoleCookie: [] }];
  const image = (type: string) => ({ schema: { type: 'string', contentMediaType: type } });
  doc.paths['/media'].post = {
    operationId: 'media-upload',
    tags: ['Content'],
    summary: 'Upload an image',
    description:
      "Admins only. The request body is the image itself: JPEG, PNG or WebP (the type is read from the bytes), up to 20 MiB (413 beyond, refused before the body is read) and 50 megapixels, as for listing photos. `alt` (the default language's text, 1..300 characters) and `alts.<language>` per language go in the query. Answers 201 with the ImageRef (thumb, medium, large and xlarge sizes, made at once). One audit row (the size and alt texts, never the bytes).",
    security,
    parameters: [
      { name: 'alt', in: 'query', required: true, schema: { type: 'string', minLength: 1, maxLength: 300 }, description: 'Text for people who cannot see the image, in the default language.', example: 'A bright room' },
      { name: 'alts', in: 'query', required: false, style: 'deepObject', explode: true, schema: { type: 'object', additionalProperties: { type: 'string', minLength: 1, maxLength: 300 } }, description: "Per language as `alts.sv=…` (the marketplace's languages only)." },
      { $ref: '#/components/parameters/IdempotencyKey' },
    ],
    requestBody: { required: true, content: { 'image/jpeg': image('image/jpeg'), 'image/png': image('image/png'), 'image/webp': image('image/webp'), 'application/octet-stream': image('application/octet-stream') } },
    responses: {
      '201': {
        description: 'Created: the image and its sizes.',
        headers: { ...requestId, 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } },
        content: { 'application/json': { schema: { type: 'object', required: ['image'], properties: { image: { type: 'object', additionalProperties: {} } } } } },
      },
      ...problems([400, 401, 403, 404, 408, 409, 413, 415, 422, 500, 503]),
    },
  };
  doc.paths['/newsletter/subscribers.csv'] = {
    get: {
      operationId: 'newsletter-export',
      tags: ['Newsletter'],
      summary: 'Export newsletter sign-ups (CSV)',
      description:
        'Every sign-up, oldest first, as `text/csv` (UTF-8, RFC 4180, CRLF line ends, a header row) for download: `email, first_name, locale, source, subscribed_at, contact_provider, contact_id, contact_added_at` (the last three empty while the sign-up waits for the contact list). A value starting with `=`, `+`, `-` or `@` gets a leading `\'` so spreadsheets show it as text. Viewers may download it too.',
      security,
      parameters: [],
      responses: {
        '200': {
          description: 'The CSV file.',
          headers: { ...requestId, 'Content-Disposition': { description: '`attachment; filename="newsletter-subscribers.csv"`', schema: { type: 'string' } } },
          content: { 'text/csv': { schema: { type: 'string' }, example: 'email,first_name,locale,source,subscribed_at,contact_provider,contact_id,contact_added_at\r\nkim@example.com,Kim,en,footer,2026-11-20T09:30:00.000Z,local,c_1,2026-11-20T09:30:05.000Z\r\n' } },
        },
        ...problems([400, 401, 404, 422, 500, 503]),
      },
    },
  };
}

