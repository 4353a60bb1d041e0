import { z } from 'zod';
import { router } from '../../trpc.js';
import { perform } from '../../console/operations.js';
import { ZAttention, attentionOp } from '../../console/attention.js';
import { operatorProcedure } from '../procedure.js';
import { openapi, read } from '../meta.js';
import { ZAnyObject } from '../schemas.js';

const ZQueue = z.object({ count: z.number().int().describe('How many in all.'), items: z.array(ZAnyObject).describe('The first `limit`, the latest first.') });

export const attention = router({
  get: operatorProcedure
    .meta(
      read(
        openapi(
          'GET',
          '/attention',
          'Attention',
          'What waits for the team',
          'Each queue with its count (of all) and its first `limit` items, the latest first: `listings_pending_approval`, `valuation_requests`, `storage_collections` (the seller asked for storage and the listing is still with them), `orders_disputed`, `orders_not_sent` (paid and not marked sent for `not_sent_after_days` days, half the time after which it is canceled by itself), `orders_chargeback`, `payouts_held` (for a chargeback), `payouts_failed`, `support_unanswered`, `webhooks_failing` (failing or disabled endpoints). Viewers read it too.',
        ),
      ),
    )
    .input(z.strictObject({ limit: z.coerce.number().int().min(1).max(50).default(5).describe(ZAttention.limit.description ?? '') }))
    .output(
      z.object({
        total: z.number().int(),
        not_sent_after_days: z.number(),
        queues: z.object({
          listings_pending_approval: ZQueue,
          valuation_requests: ZQueue,
          storage_collections: ZQueue,
          orders_disputed: ZQueue,
          orders_not_sent: ZQueue,
          orders_chargeback: ZQueue,
          payouts_held: ZQueue,
          payouts_failed: ZQueue,
          support_unanswered: ZQueue,
          webhooks_failing: ZQueue,
        }),
      }),
    )
    .query(({ ctx, input }) => perform(attentionOp, ctx.scope, input)),
});
