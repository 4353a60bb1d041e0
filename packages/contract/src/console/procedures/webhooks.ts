import { z } from 'zod';
import { consoleProcedure } from '../../trpc.js';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { perform, type Operation } from '../operations.js';
import {
  ZWebhookDeliveriesLimit,
  ZWebhookEnabled,
  ZWebhookEventId,
  ZWebhookUrl,
  createWebhookOp,
  deleteWebhookOp,
  listWebhooksOp,
  replayWebhookOp,
  rotateWebhookSecretOp,
  updateWebhookOp,
  webhookDeliveriesOp,
} from '../webhook-operations.js';

/** `webhooks create|list|update|delete|rotate-secret|deliveries|replay`: the marketplace's webhook endpoints (the operations the back office performs too). */

const ZEndpointRef = ZMarketplaceRef.extend({ id: z.uuid().describe('Webhook endpoint id.') });
const ZEvents = z.string().min(1).max(1000).describe('Event types, comma-separated (e.g. order.updated,payout.updated), or * for every type.');

/** The operation in the named marketplace, as `cli`. */
const cli = async <I, O>(op: Operation<I, O>, ctx: Parameters<typeof scoped>[0], input: { marketplace: string } & I): Promise<O> => {
  const { marketplace, ...rest } = input;
  return perform(op, cliScope(ctx, await scoped(ctx, marketplace)), rest as I);
};

export const createWebhookProcedure = consoleProcedure
  .input(ZMarketplaceRef.extend({ url: ZWebhookUrl, events: ZEvents }).describe('Add a webhook endpoint; prints its id and its signing secret (whsec_…), shown this once.'))
  .mutation(({ ctx, input }) => cli(createWebhookOp, ctx, input));

export const listWebhooksProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe("The marketplace's webhook endpoints (status: enabled, failing or disabled)."))
  .query(({ ctx, input }) => cli(listWebhooksOp, ctx, input));

export const updateWebhookProcedure = consoleProcedure
  .input(
    ZEndpointRef.extend({ url: ZWebhookUrl.optional().describe('A new URL.'), events: ZEvents.optional(), enabled: ZWebhookEnabled.optional() }).describe(
      "Change an endpoint's URL, event types or whether it is enabled.",
    ),
  )
  .mutation(({ ctx, input }) => cli(updateWebhookOp, ctx, input));

export const deleteWebhookProcedure = consoleProcedure
  .input(ZEndpointRef.describe('Delete an endpoint and its delivery log.'))
  .mutation(({ ctx, input }) => cli(deleteWebhookOp, ctx, input));

export const rotateWebhookSecretProcedure = consoleProcedure
  .input(ZEndpointRef.describe('A new signing secret (printed once); the previous one keeps signing beside it for 24 hours.'))
  .mutation(({ ctx, input }) => cli(rotateWebhookSecretOp, ctx, input));

export const webhookDeliveriesProcedure = consoleProcedure
  .input(ZEndpointRef.extend({ limit: ZWebhookDeliveriesLimit }).describe("An endpoint's delivery log, newest first: event, attempt, status code, duration, error, the first 1 KB of the response."))
  .query(({ ctx, input }) => cli(webhookDeliveriesOp, ctx, input));

export const replayWebhookProcedure = consoleProcedure
  .input(ZEndpointRef.extend({ event: ZWebhookEventId }).describe('Send an event to the endpoint again (same webhook-id; a new delivery with its own retries).'))
  .mutation(({ ctx, input }) => cli(replayWebhookOp, ctx, input));
