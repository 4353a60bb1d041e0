import { z } from 'zod';
import { EVENT_TYPES } from '@hm/domain/webhooks';
import { router } from '../trpc.js';
import { perform } from '../console/operations.js';
import * as hooks from '../console/webhook-operations.js';
import { operatorProcedure } from './procedure.js';
import { openapi as documented } from './meta.js';

/**
 * The back office's webhook endpoints (/console/v1/webhooks, tag Webhooks): the same operations as
 * the command line's `webhooks …` (console/webhook-operations.ts). Reads for the whole team; every
 * change for admins only (viewers 403), one audit row each. Another marketplace's endpoint is 404.
 */

const TAG = 'Webhooks';
const ZEndpointId = z.uuid().describe('Webhook endpoint id.');

/** Event types as a list: each a known type, or `["*"]` alone for every type (the command line's comma-separated string, joined). */
const ZEventList = z
  .array(z.string().min(1).max(100).regex(/^[^,\s]+$/, 'One event type per item (no commas or spaces).'))
  .min(1)
  .max(EVENT_TYPES.length + 1)
  .describe(`Event types (${EVENT_TYPES.join(', ')}), or ["*"] for every type.`);
const joined = (events: string[] | undefined) => (events === undefined ? undefined : events.join(','));

const AT = '2026-11-28T10:15:00.000Z';
const ENDPOINT_ID = '0193b2c4-8a00-7c2e-9a41-3f5d2e8b1a20';
const endpointExample = { id: ENDPOINT_ID, url: 'https://shop.example/hooks', events: ['order.updated', 'payout.updated'], enabled: true, status: 'enabled', created_at: AT, updated_at: AT };
const SECRET_EXAMPLE = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export const ZWebhookEndpoint = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.string()).meta({ description: 'The event types it receives, or `["*"]`.' }),
    enabled: z.boolean(),
    status: z.enum(['enabled', 'failing', 'disabled']).meta({ description: '`failing`: its latest attempts failed (on the attention list); `disabled`: by the team, or after 5 days of only failures.' }),
    failing_since: z.string().optional().meta({ description: 'When its attempts started failing (absent while they succeed).' }),
    disabled_reason: z.string().optional(),
    previous_secret_signs_until: z.string().optional().meta({ description: 'After a rotation: the previous secret signs beside the new one until then.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });

const ZWithSecret = z.object({
  endpoint: ZWebhookEndpoint,
  secret: z.string().meta({ description: 'The signing secret (`whsec_…`): shown in this answer only (it is kept sealed); verify deliveries with it (Standard Webhooks).' }),
});

const ZAttempt = z
  .object({
    delivery_id: z.uuid(),
    event_id: z.string(),
    attempt: z.number().int().meta({ description: '1 to 8 (immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).' }),
    status_code: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when none came (refused, timeout, connection error)." }),
    duration_ms: z.number().int(),
    error: z.string().nullable(),
    response: z.string().nullable().meta({ description: 'The first 1 KB of the response body.' }),
    at: z.string(),
    delivery_status: z.enum(['pending', 'delivered', 'failed']).meta({ description: "The delivery's status now (its later attempts included)." }),
  })
  .meta({ id: 'WebhookAttempt' });

const openapi = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: `/${string}`, summary: string, description: string) => documented(method, path, TAG, summary, description);

export const webhooksRouter = router({
  list: operatorProcedure
    .meta({
      auth: 'operator',
      openapi: openapi('GET', '/webhooks', 'Webhook endpoints', 'Every endpoint of the marketplace, oldest first, with its status (`enabled`, `failing`, `disabled`); never its secret. As the command line’s `webhooks list`.'),
      responseExamples: { endpoints: { summary: 'One endpoint', value: { items: [endpointExample] } } },
    })
    .input(z.object({}))
    .output(z.object({ items: z.array(ZWebhookEndpoint) }))
    .query(({ ctx }) => perform(hooks.listWebhooksOp, ctx.scope, {})),
  create: operatorProcedure
    .meta({
      auth: 'operator',
      write: true,
      successStatus: 201,
      problems: [403],
      requestExample: { url: 'https://shop.example/hooks', events: ['order.updated', 'payout.updated'] },
      responseExamples: { created: { summary: 'The endpoint and its secret, shown once', value: { endpoint: endpointExample, secret: SECRET_EXAMPLE } } },
      openapi: openapi(
        'POST',
        '/webhooks',
        'Add a webhook endpoint',
        'Admins only. Events of the listed types (or `["*"]`) are POSTed to `url`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). `secret` is in this answer only. Live mode: `https://` and a public address only (checked again at every delivery); test mode also `http://` and localhost. Every problem of `url` and `events` at once (422).',
      ),
    })
    .input(z.strictObject({ url: hooks.ZWebhookUrl, events: ZEventList }))
    .output(ZWithSecret)
    .mutation(({ ctx, input }) => perform(hooks.createWebhookOp, ctx.scope, { url: input.url, events: joined(input.events)! })),
  update: operatorProcedure
    .meta({
      auth: 'operator',
      write: true,
      problems: [403],
      requestExample: { enabled: true },
      responseExamples: { enabled: { summary: 'Enabled again', value: { endpoint: endpointExample } } },
      openapi: openapi(
        'PATCH',
        '/webhooks/{id}',
        'Change a webhook endpoint',
        'Admins only. Any of `url`, `events`, `enabled`. `enabled: true` sends again and clears the failing state (its next failure starts the 5 days anew); `enabled: false` stops sending (pending deliveries are not sent).',
      ),
    })
    .input(z.strictObject({ id: ZEndpointId, url: hooks.ZWebhookUrl.optional(), events: ZEventList.optional(), enabled: hooks.ZWebhookEnabled.optional() }))
    .output(z.object({ endpoint: ZWebhookEndpoint }))
    .mutation(({ ctx, input }) => perform(hooks.updateWebhookOp, ctx.scope, { id: input.id, url: input.url, events: joined(input.events), enabled: input.enabled })),
  delete: operatorProcedure
    .meta({
      auth: 'operator',
      write: true,
      problems: [403],
      responseExamples: { deleted: { summary: 'Deleted', value: { deleted: true, id: ENDPOINT_ID } } },
      openapi: openapi('DELETE', '/webhooks/{id}', 'Delete a webhook endpoint', 'Admins only. With its delivery log; nothing more is sent to it.'),
    })
    .input(z.strictObject({ id: ZEndpointId }))
    .output(z.object({ deleted: z.literal(true), id: z.uuid() }))
    .mutation(({ ctx, input }) => perform(hooks.deleteWebhookOp, ctx.scope, input)),
  rotateSecret: operatorProcedure
    .meta({
      auth: 'operator',
      write: true,
      problems: [403],
      responseExamples: { rotated: { summary: 'The new secret, shown once', value: { endpoint: { ...endpointExample, previous_secret_signs_until: '2026-11-29T10:15:00.000Z' }, secret: SECRET_EXAMPLE } } },
      openapi: openapi(
        'POST',
        '/webhooks/{id}/rotate-secret',
        'Rotate the signing secret',
        'Admins only. A new `secret`, in this answer only; for 24 hours the previous one signs beside it (two signatures in `webhook-signature`), so the receiver can switch over.',
      ),
    })
    .input(z.strictObject({ id: ZEndpointId }))
    .output(ZWithSecret)
    .mutation(({ ctx, input }) => perform(hooks.rotateWebhookSecretOp, ctx.scope, input)),
  deliveries: operatorProcedure
    .meta({
      auth: 'operator',
      openapi: openapi('GET', '/webhooks/{id}/deliveries', 'Delivery log', 'The endpoint’s latest attempts, newest first: event, attempt, status code, duration, error, the first 1 KB of the response. As the command line’s `webhooks deliveries`.'),
      responseExamples: {
        retried: {
          summary: 'A 500, then delivered',
          value: {
            items: [
              { delivery_id: '0193b2c4-8b00-7c2e-9a41-3f5d2e8b1a20', event_id: 'evt_0193b2c47f107c2e9a41000000000005', attempt: 2, status_code: 200, duration_ms: 38, error: null, response: 'ok', at: '2026-11-28T10:15:06.000Z', delivery_status: 'delivered' },
              { delivery_id: '0193b2c4-8b00-7c2e-9a41-3f5d2e8b1a20', event_id: 'evt_0193b2c47f107c2e9a41000000000005', attempt: 1, status_code: 500, duration_ms: 41, error: 'HTTP 500', response: 'oops', at: AT, delivery_status: 'delivered' },
            ],
          },
        },
      },
    })
    .input(z.strictObject({ id: ZEndpointId, limit: z.coerce.number().int().min(1).max(1000).default(50).describe(hooks.ZWebhookDeliveriesLimit.description ?? '') }))
    .output(z.object({ items: z.array(ZAttempt) }))
    .query(({ ctx, input }) => perform(hooks.webhookDeliveriesOp, ctx.scope, input)),
  replay: operatorProcedure
    .meta({
      auth: 'operator',
      write: true,
      successStatus: 202,
      problems: [403],
      requestExample: { event: 'evt_0193b2c47f107c2e9a41000000000005' },
      responseExamples: { queued: { summary: 'Queued', value: { delivery_id: '0193b2c4-8c00-7c2e-9a41-3f5d2e8b1a20', endpoint_id: ENDPOINT_ID, event_id: 'evt_0193b2c47f107c2e9a41000000000005' } } },
      openapi: openapi(
        'POST',
        '/webhooks/{id}/replay',
        'Send an event again',
        'Admins only. A new delivery of the event (of the last 30 days) to this endpoint, with its own retries and the same `webhook-id` (receivers dedupe by it). 404 for an event that is not there.',
      ),
    })
    .input(z.strictObject({ id: ZEndpointId, event: hooks.ZWebhookEventId }))
    .output(z.object({ delivery_id: z.uuid(), endpoint_id: z.uuid(), event_id: z.string() }))
    .mutation(({ ctx, input }) => perform(hooks.replayWebhookOp, ctx.scope, input)),
});
