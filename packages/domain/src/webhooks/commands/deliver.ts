import { z } from 'zod';
import { Webhook } from 'standardwebhooks';
import { MarketplaceSchema } from '@hm/db/entities';
import { tenantEm, uuidv7, type EntityManager } from '@hm/db/orm';
import type { AppendedEvent } from '../../core/events.js';
import { findEvent } from '../../core/events.queries.js';
import { addJob, jobKey } from '../../core/jobs.js';
import { defineTask, type TaskContext } from '../../core/tasks.js';
import { queueTeamAlert } from '../../emails/index.js';
import { toEventBody } from '../events.mapper.js';
import { checkTarget, send, type SendResult } from '../send.js';
import { endpointsFor, findDelivery, findEndpoint, insertAttempt, insertDelivery, updateDelivery, updateEndpoint, type EndpointRow } from '../webhooks.queries.js';

/**
 * Webhook delivery (Standard Webhooks): one `deliver-webhook` job per delivery (an event to an
 * endpoint), queued in the event's own transaction. Each run makes one attempt and, when it fails,
 * schedules the next one as the same job at the standard schedule's time — so the timers test helper
 * runs retries early. At-least-once: a receiver dedupes by `webhook-id` (the event id).
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** When attempt n (1-based) runs, after the failure of attempt n − 1: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_MS = [0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;
/** An endpoint whose attempts have all failed for this long is disabled (and shows why). */
export const DISABLE_AFTER_MS = 5 * 24 * HOUR;

const ZDeliveryPayload = z.object({ marketplace_id: z.uuid(), delivery_id: z.uuid() });

export const deliverWebhookTask = defineTask({
  name: 'deliver-webhook',
  payload: ZDeliveryPayload,
  timer: true,
  run: (p, ctx) => deliver(ctx, p.marketplace_id, p.delivery_id),
});

/** A delivery of an event to an endpoint and its first attempt's job, in the caller's transaction. */
export async function queueDelivery(em: EntityManager, marketplaceId: string, endpointId: string, eventId: string, at: Date): Promise<string> {
  const id = uuidv7();
  await insertDelivery(em, { id, endpointId, eventId, at });
  await addJob(em, deliverWebhookTask, { marketplace_id: marketplaceId, delivery_id: id }, { jobKey: jobKey(deliverWebhookTask, id), runAt: at });
  return id;
}

/** The event subscriber: a delivery for each enabled endpoint that wants the event's type. */
export async function queueDeliveries(em: EntityManager, marketplaceId: string, event: AppendedEvent): Promise<void> {
  const at = event.created_at;
  for (const endpoint of await endpointsFor(em, event.type)) await queueDelivery(em, marketplaceId, endpoint.id, event.id, at);
}

/** `v1,<sig>` for the secret, and for the previous one while it still signs (rotation): space-separated, per Standard Webhooks. */
export function signatures(secrets: string[], id: string, at: Date, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' ');
}

function secretsOf(ctx: TaskContext, e: EndpointRow, now: Date): string[] {
  const current = ctx.secrets.open(e.secret, e.id);
  const previous = e.previous_secret && e.previous_secret_until && e.previous_secret_until > now ? [ctx.secrets.open(e.previous_secret, e.id)] : [];
  return [current, ...previous];
}

async function deliver(ctx: TaskContext, marketplaceId: string, deliveryId: string): Promise<string> {
  const em = tenantEm(ctx.orm, marketplaceId);
  const delivery = await findDelivery(em, deliveryId);
  if (!delivery || delivery.status !== 'pending') return `delivery ${deliveryId}: ${delivery ? delivery.status : 'gone'}, nothing to do`;
  const [endpoint, event] = await Promise.all([findEndpoint(em, delivery.endpoint_id), findEvent(em, delivery.event_id)]);
  if (!endpoint || !event) return `delivery ${deliveryId}: its ${endpoint ? 'event is past its 30 days' : 'endpoint is deleted'}, nothing sent`;
  if (!endpoint.enabled) return `delivery ${deliveryId}: endpoint ${endpoint.id} is disabled, nothing sent`;
  const attempt = delivery.attempts + 1;
  const now = ctx.clock.now();
  const body = JSON.stringify(toEventBody(event));
  // no database connection is held while the receiver answers
  const target = await checkTarget(endpoint.url, ctx.mode);
  let secrets: string[] | string;
  try {
    secrets = secretsOf(ctx, endpoint, now);
  } catch (e) {
    secrets = (e as Error).message; // the secrets key changed: a failed attempt the log explains, not a crash
  }
  const result: SendResult = !target.ok
    ? { status: null, error: `Refused: ${target.reason}`, response: null, durationMs: 0 }
    : typeof secrets === 'string'
      ? { status: null, error: secrets, response: null, durationMs: 0 }
      : await send(target, { 'webhook-id': event.id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signatures(secrets, event.id, now, body) }, body);
  const ok = result.error === null;
  return em.transactional(async (tx) => {
    const fresh = await findDelivery(tx, deliveryId, { lock: true });
    if (!fresh || fresh.status !== 'pending' || fresh.attempts >= attempt) return `delivery ${deliveryId}: recorded by another run meanwhile`;
    const at = ctx.clock.now();
    await insertAttempt(tx, { id: uuidv7(), delivery_id: deliveryId, endpointId: endpoint.id, event_id: event.id, attempt, status_code: result.status, duration_ms: result.durationMs, error: result.error, response: result.response, at });
    // `for no key update`: compatible with the key-share locks the attempt rows' foreign keys take, so
    // deliveries to one endpoint recorded at once wait for each other instead of deadlocking
    const locked = (await findEndpoint(tx, endpoint.id, { lock: true }))!;
    if (ok) {
      await updateDelivery(tx, deliveryId, { status: 'delivered', attempts: attempt, nextAttemptAt: null, at });
      if (locked.failing_since) await updateEndpoint(tx, endpoint.id, { failing_since: null, at });
      return `delivery ${deliveryId}: ${event.id} delivered to ${endpoint.id} (attempt ${attempt}, HTTP ${result.status})`;
    }
    const failingSince = locked.failing_since ?? at;
    // only the run that turns it off (under the endpoint's lock) disables it and emails the team
    const disable = locked.enabled && at.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS;
    await updateEndpoint(tx, endpoint.id, {
      failing_since: failingSince,
      ...(disable && { enabled: false, disabled_reason: `Every delivery failed since ${failingSince.toISOString()}; disabled after 5 days. Fix the receiver, then enable it again.` }),
      at,
    });
    const emailed = disable && (await alertDisabled(tx, marketplaceId, locked, failingSince, result.error!));
    const next = RETRY_SCHEDULE_MS[attempt];
    if (next === undefined || disable) {
      await updateDelivery(tx, deliveryId, { status: 'failed', attempts: attempt, nextAttemptAt: null, at });
      const disabled = disable ? `; endpoint ${endpoint.id} disabled${emailed ? ' (the team was emailed)' : ' (no alert_email: the console lists it)'}` : '';
      return `delivery ${deliveryId}: ${event.id} failed for good after attempt ${attempt} (${result.error})${disabled}`;
    }
    const runAt = new Date(at.getTime() + next);
    await updateDelivery(tx, deliveryId, { status: 'pending', attempts: attempt, nextAttemptAt: runAt, at });
    await addJob(tx, deliverWebhookTask, { marketplace_id: marketplaceId, delivery_id: deliveryId }, { jobKey: jobKey(deliverWebhookTask, deliveryId), runAt });
    return `delivery ${deliveryId}: attempt ${attempt} failed (${result.error}), next at ${runAt.toISOString()}`;
  });
}

/** The team's email (`alert_email`) when an endpoint is disabled after 5 days of failures: which one, since when, the last error, how to turn it on again. */
async function alertDisabled(em: EntityManager, marketplaceId: string, endpoint: EndpointRow, failingSince: Date, lastError: string): Promise<boolean> {
  const marketplace = await em.findOneOrFail(MarketplaceSchema, { id: marketplaceId });
  return queueTeamAlert(em, marketplace, {
    subject: `A webhook endpoint was disabled: ${endpoint.url}`,
    lines: [
      `Every delivery to the webhook endpoint ${endpoint.id} (${endpoint.url}) has failed since ${failingSince.toISOString()}, so after 5 days it was disabled: no more events are sent to it.`,
      `The last error: ${lastError}`,
      `The log of its attempts: npm run console -- webhooks deliveries --marketplace ${marketplace.slug} --id ${endpoint.id}`,
      `Fix the receiver, then enable it again: npm run console -- webhooks update --marketplace ${marketplace.slug} --id ${endpoint.id} --enabled true`,
    ],
  });
}
