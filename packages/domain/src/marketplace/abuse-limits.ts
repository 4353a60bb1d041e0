import type { AbuseLimits, Marketplace } from '@hm/db/entities';
import { z } from 'zod';

/**
 * Per-user caps against abuse, tunable per marketplace (console settings `abuse_limits`, not in the
 * spec: docs/decisions.md). Stock hoarding: orders a buyer may have awaiting payment at once. Spam:
 * messages a user may write a minute and new conversations (support included) they may open an hour.
 */
export const ABUSE_LIMIT_DEFAULTS: Required<AbuseLimits> = { pending_orders_per_buyer: 3, messages_per_minute: 60, new_conversations_per_hour: 20 };

export const ZAbuseLimits = z.strictObject({
  pending_orders_per_buyer: z.number().int().min(1).max(100).optional().describe(`Orders one buyer may have awaiting payment at once (default ${ABUSE_LIMIT_DEFAULTS.pending_orders_per_buyer}); the next is 409.`),
  messages_per_minute: z.number().int().min(1).max(10_000).optional().describe(`Messages one user may write a minute (default ${ABUSE_LIMIT_DEFAULTS.messages_per_minute}); over it 429.`),
  new_conversations_per_hour: z.number().int().min(1).max(10_000).optional().describe(`Conversations one user may open an hour, support included (default ${ABUSE_LIMIT_DEFAULTS.new_conversations_per_hour}); over it 429.`),
});

/** A marketplace's caps with the defaults filled in. */
export function abuseLimitsOf(m: Marketplace): Required<AbuseLimits> {
  return { ...ABUSE_LIMIT_DEFAULTS, ...(m.abuseLimits ?? {}) };
}
