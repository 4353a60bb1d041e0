import { z } from 'zod';
import { createEndpoint, deleteWebhookEndpoint, listWebhookEndpoints, replayWebhook, rotateWebhookSecret, updateWebhookEndpoint, webhookDeliveries } from '@hm/domain/webhooks';
import { operation, type OperationScope } from './operations.js';

/**
 * The marketplace's webhook endpoints as console operations, each defined once: the command line's
 * `webhooks create|list|update|delete|rotate-secret|deliveries|replay` (actor `cli`) and the back
 * office's /console/v1/webhooks (the signed-in operator) both `perform` them; every write leaves one
 * audit row (its input without the secret).
 */

const cmd = (s: OperationScope) => ({ ...s.ctx, em: s.em, marketplace: s.marketplace });
const endpointTarget = (i: { id: string }) => ({ type: 'webhook_endpoint', id: i.id });

export const ZWebhookUrl = z.string().min(1).max(2000).describe('Where to POST (live mode: https:// and a public address; test mode also http:// and localhost).');
export const ZWebhookEnabled = z.boolean().describe('false: stop sending; true: send again (clears the failing state).');
export const ZWebhookDeliveriesLimit = z.number().int().min(1).max(1000).default(50).describe('At most this many attempts (1..1000, default 50).');
export const ZWebhookEventId = z.string().min(1).max(100).describe('Event id (evt_…) of the last 30 days.');

export const listWebhooksOp = operation({
  action: 'webhook_endpoint.list',
  write: false,
  target: () => ({ type: 'webhook_endpoint', id: '' }),
  run: (s, _input: object) => listWebhookEndpoints(cmd(s)),
});

export const createWebhookOp = operation({
  action: 'webhook_endpoint.create',
  write: true,
  target: (_i, out: { endpoint: { id: string } }) => ({ type: 'webhook_endpoint', id: out.endpoint.id }),
  run: (s, input: { url: string; events: string }) => createEndpoint(cmd(s), input),
});

export const updateWebhookOp = operation({
  action: 'webhook_endpoint.update',
  write: true,
  target: endpointTarget,
  run: (s, input: { id: string; url?: string | undefined; events?: string | undefined; enabled?: boolean | undefined }) =>
    updateWebhookEndpoint(cmd(s), {
      id: input.id,
      ...(input.url !== undefined && { url: input.url }),
      ...(input.events !== undefined && { events: input.events }),
      ...(input.enabled !== undefined && { enabled: input.enabled }),
    }),
});

export const deleteWebhookOp = operation({
  action: 'webhook_endpoint.delete',
  write: true,
  target: endpointTarget,
  run: (s, input: { id: string }) => deleteWebhookEndpoint(cmd(s), input.id),
});

export const rotateWebhookSecretOp = operation({
  action: 'webhook_endpoint.rotate_secret',
  write: true,
  target: endpointTarget,
  run: (s, input: { id: string }) => rotateWebhookSecret(cmd(s), input.id),
});

export const webhookDeliveriesOp = operation({
  action: 'webhook_endpoint.deliveries',
  write: false,
  target: endpointTarget,
  run: (s, input: { id: string; limit: number }) => webhookDeliveries(cmd(s), input),
});

export const replayWebhookOp = operation({
  action: 'webhook_endpoint.replay',
  write: true,
  target: endpointTarget,
  run: (s, input: { id: string; event: string }) => replayWebhook(cmd(s), { id: input.id, event_id: input.event }),
});
