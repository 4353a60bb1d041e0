import { z } from 'zod';
import type { Context } from '@hm/domain/core';
import { createEndpoint, deleteWebhookEndpoint, listWebhookEndpoints, replayWebhook, rotateWebhookSecret, updateWebhookEndpoint, webhookDeliveries } from '@hm/domain/webhooks';
import { consoleProcedure } from '../../trpc.js';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

/** `webhooks create|list|update|delete|rotate-secret|deliveries|replay`: the marketplace's webhook endpoints. */

async function webhookScope(ctx: Context, slug: string) {
  const { marketplace, em } = await scoped(ctx, slug);
  return { ...ctx, em, marketplace };
}

const ZEndpointRef = ZMarketplaceRef.extend({ id: z.uuid().describe('Webhook endpoint id.') });
const ZEvents = z.string().min(1).max(1000).describe('Event types, comma-separated (e.g. order.updated,payout.updated), or * for every type.');

export const createWebhookProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({
      url: z.string().min(1).max(2000).describe('Where to POST (live mode: https:// and a public address).'),
      events: ZEvents,
    }).describe('Add a webhook endpoint; prints its id and its signing secret (whsec_…), shown this once.'),
  )
  .mutation(async ({ ctx, input }) => createEndpoint(await webhookScope(ctx, input.marketplace), input));

export const listWebhooksProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe("The marketplace's webhook endpoints (status: enabled, failing or disabled)."))
  .query(async ({ ctx, input }) => listWebhookEndpoints(await webhookScope(ctx, input.marketplace)));

export const updateWebhookProcedure = consoleProcedure
  .input(
    ZEndpointRef.extend({
      url: z.string().min(1).max(2000).optional().describe('A new URL.'),
      events: ZEvents.optional(),
      enabled: z.boolean().optional().describe('false: stop sending; true: send again (clears the failing state).'),
    }).describe("Change an endpoint's URL, event types or whether it is enabled."),
  )
  .mutation(async ({ ctx, input }) => updateWebhookEndpoint(await webhookScope(ctx, input.marketplace), input));

export const deleteWebhookProcedure = consoleProcedure
  .input(ZEndpointRef.describe('Delete an endpoint and its delivery log.'))
  .mutation(async ({ ctx, input }) => deleteWebhookEndpoint(await webhookScope(ctx, input.marketplace), input.id));

export const rotateWebhookSecretProcedure = consoleProcedure
  .input(ZEndpointRef.describe('A new signing secret (printed once); the previous one keeps signing beside it for 24 hours.'))
  .mutation(async ({ ctx, input }) => rotateWebhookSecret(await webhookScope(ctx, input.marketplace), input.id));

export const webhookDeliveriesProcedure = consoleProcedure
  .input(
    ZEndpointRef.extend({ limit: z.number().int().min(1).max(1000).default(50).describe('At most this many attempts (1..1000, default 50).') }).describe(
      "An endpoint's delivery log, newest first: event, attempt, status code, duration, error, the first 1 KB of the response.",
    ),
  )
  .query(async ({ ctx, input }) => webhookDeliveries(await webhookScope(ctx, input.marketplace), input));

export const replayWebhookProcedure = consoleProcedure
  .input(ZEndpointRef.extend({ event: z.string().min(1).max(100).describe('Event id (evt_…) of the last 30 days.') }).describe('Send an event to the endpoint again (same webhook-id; a new delivery with its own retries).'))
  .mutation(async ({ ctx, input }) => replayWebhook(await webhookScope(ctx, input.marketplace), { id: input.id, event_id: input.event }));
