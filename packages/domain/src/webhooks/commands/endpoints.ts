import { randomBytes } from 'node:crypto';
import { uuidv7 } from '@hm/db/orm';
import type { ApiMode, CommandContext } from '../../core/context.js';
import { NotFoundError, ValidationError, type FieldError } from '../../core/errors.js';
import { findEvent } from '../../core/events.queries.js';
import { checkTarget } from '../send.js';
import { EVENT_TYPES } from '../webhooks.schema.js';
import { deleteEndpoint, findEndpoint, insertEndpoint, listAttempts, listEndpoints, updateEndpoint, type EndpointRow } from '../webhooks.queries.js';
import { queueDelivery } from './deliver.js';

/**
 * The team's webhook endpoints (console): created with a signing secret shown once, listed,
 * updated (URL, event types or `*`, enabled), deleted; the secret rotated (the previous one keeps
 * signing for 24 hours beside the new); the delivery log read and any event replayed.
 */

type WebhookContext = CommandContext & { mode: ApiMode };

/** During a rotation the previous secret signs too, this long. */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;

/** `whsec_` and base64 of 32 random bytes (Standard Webhooks: the secret's bytes key the HMAC). */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function toEndpointBody(e: EndpointRow) {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    enabled: e.enabled,
    /** `failing`: its latest attempts failed (the back-office's Attention list); `disabled`: by the team, or after 5 days of failures */
    status: (!e.enabled ? 'disabled' : e.failing_since ? 'failing' : 'enabled') as 'enabled' | 'failing' | 'disabled',
    ...(e.failing_since && { failing_since: e.failing_since.toISOString() }),
    ...(e.disabled_reason && { disabled_reason: e.disabled_reason }),
    ...(e.previous_secret_until && e.previous_secret_until > new Date() && { previous_secret_signs_until: e.previous_secret_until.toISOString() }),
    created_at: e.created_at.toISOString(),
    updated_at: e.updated_at.toISOString(),
  };
}

/** `*`, or known event types (each once). */
function eventsErrors(events: string[]): FieldError[] {
  if (events.length === 0) return [{ location: 'events', message: `Name at least one event type, or *.`, value: '' }];
  if (events.includes('*')) return events.length === 1 ? [] : [{ location: 'events', message: '* already means every type; give it alone.', value: events.join(',') }];
  return events.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t)).map((t) => ({ location: 'events', message: `Unknown event type. One of: ${EVENT_TYPES.join(', ')}, or *.`, value: t }));
}

/** A URL the deployment may send to (live: https and a public address now; checked again at every delivery). */
async function urlErrors(url: string, mode: ApiMode): Promise<FieldError[]> {
  if (url.length > 2000) return [{ location: 'url', message: 'At most 2000 characters.', value: url.slice(0, 100) }];
  const target = await checkTarget(url, mode);
  return target.ok ? [] : [{ location: 'url', message: target.reason, value: url }];
}

const parseEvents = (events: string) => [...new Set(events.split(',').map((t) => t.trim()).filter(Boolean))];

async function endpointOf(ctx: CommandContext, id: string, lock = false): Promise<EndpointRow> {
  const e = await findEndpoint(ctx.em, id, { lock });
  if (!e) throw new NotFoundError('This webhook endpoint');
  return e;
}

export async function createEndpoint(ctx: WebhookContext, input: { url: string; events: string }) {
  const events = parseEvents(input.events);
  const errors = [...(await urlErrors(input.url, ctx.mode)), ...eventsErrors(events)];
  if (errors.length) throw new ValidationError(errors);
  const id = uuidv7();
  const secret = newSecret();
  await insertEndpoint(ctx.em, { id, url: input.url, events, secret: ctx.secrets.seal(secret, id), at: ctx.clock.now() });
  return { endpoint: toEndpointBody((await findEndpoint(ctx.em, id))!), secret };
}

export async function listWebhookEndpoints(ctx: CommandContext) {
  return { items: (await listEndpoints(ctx.em)).map(toEndpointBody) };
}

/** Enabling an endpoint again clears its failing state: its next failure starts the 5 days anew. */
export async function updateWebhookEndpoint(ctx: WebhookContext, input: { id: string; url?: string; events?: string; enabled?: boolean }) {
  const events = input.events === undefined ? undefined : parseEvents(input.events);
  const errors = [...(input.url === undefined ? [] : await urlErrors(input.url, ctx.mode)), ...(events ? eventsErrors(events) : [])];
  if (errors.length) throw new ValidationError(errors);
  return ctx.em.transactional(async (em) => {
    await endpointOf({ ...ctx, em }, input.id, true);
    await updateEndpoint(em, input.id, {
      ...(input.url !== undefined && { url: input.url }),
      ...(events && { events }),
      ...(input.enabled !== undefined && { enabled: input.enabled }),
      ...(input.enabled === true && { failing_since: null, disabled_reason: null }),
      ...(input.enabled === false && { disabled_reason: 'Disabled by the team.' }),
      at: ctx.clock.now(),
    });
    return { endpoint: toEndpointBody((await findEndpoint(em, input.id))!) };
  });
}

export async function deleteWebhookEndpoint(ctx: CommandContext, id: string) {
  if (!(await deleteEndpoint(ctx.em, id))) throw new NotFoundError('This webhook endpoint');
  return { deleted: true as const, id };
}

/** A new secret, shown once; the previous one signs beside it for 24 hours (receivers switch over meanwhile). */
export async function rotateWebhookSecret(ctx: CommandContext, id: string) {
  return ctx.em.transactional(async (em) => {
    const e = await endpointOf({ ...ctx, em }, id, true);
    const now = ctx.clock.now();
    const secret = newSecret();
    await updateEndpoint(em, id, { secret: ctx.secrets.seal(secret, id), previous_secret: e.secret, previous_secret_until: new Date(now.getTime() + SECRET_OVERLAP_MS), at: now });
    return { endpoint: toEndpointBody((await findEndpoint(em, id))!), secret };
  });
}

/** The delivery log: an endpoint's latest attempts, newest first. */
export async function webhookDeliveries(ctx: CommandContext, input: { id: string; limit: number }) {
  await endpointOf(ctx, input.id);
  const rows = await listAttempts(ctx.em, input.id, input.limit);
  return {
    items: rows.map((a) => ({
      delivery_id: a.delivery_id,
      event_id: a.event_id,
      attempt: a.attempt,
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
      response: a.response,
      at: new Date(a.at).toISOString(),
      delivery_status: a.delivery_status,
    })),
  };
}

/** Sends an event (of the last 30 days) to an endpoint again, as a new delivery with its own retries; the same `webhook-id`. */
export async function replayWebhook(ctx: CommandContext, input: { id: string; event_id: string }) {
  return ctx.em.transactional(async (em) => {
    // locked: a delete of the endpoint racing this replay waits for it (else the delivery row would name a deleted endpoint)
    await endpointOf({ ...ctx, em }, input.id, true);
    if (!(await findEvent(em, input.event_id))) throw new NotFoundError('This event');
    const deliveryId = await queueDelivery(em, ctx.marketplace.id, input.id, input.event_id, ctx.clock.now());
    return { delivery_id: deliveryId, endpoint_id: input.id, event_id: input.event_id };
  });
}
