import { z } from 'zod';
import { OrderSchema } from '@hm/db/entities';
import { countListingsForTeam, listListingsForTeam, type TeamListingFilter } from '@hm/domain/listings';
import { supportInbox, supportInboxCount, toConsoleConversationBody } from '@hm/domain/messages';
import { NOT_SENT_ATTENTION_MS } from '@hm/domain/orders';
import { countPayouts, failedPayouts, heldPayouts } from '@hm/domain/payouts';
import { listWebhookEndpoints } from '@hm/domain/webhooks';
import { consoleListings } from './console-scope.js';
import { listOrdersOp, operation, orderWhere, type OperationScope, type OrderFilter } from './operations.js';

/**
 * What waits for the team (the back office's home page, `attention` on the command line): for each
 * queue, how many in all and the first few, each through the query its own list uses (listings,
 * orders, payouts failed, the support inbox, webhooks), so a queue here is the same as its list.
 */
export const ZAttention = {
  limit: z.number().int().min(1).max(50).default(5).describe('The first this many items of each queue (1..50, default 5); the counts are of all.'),
};

interface Queue<T> {
  count: number;
  items: T[];
}

/** One queue: its count, then its first items (one after the other: one entity manager, one query at a time). */
async function queue<T>(count: () => Promise<number>, items: () => Promise<T[]>): Promise<Queue<T>> {
  const n = await count();
  return { count: n, items: n === 0 ? [] : await items() };
}

const listings = async (s: OperationScope, filter: TeamListingFilter, limit: number) =>
  queue(
    () => countListingsForTeam(s.em, filter),
    async () => consoleListings(s.ctx, s, (await listListingsForTeam(s.em, s.marketplace.id, { ...filter, limit })).items),
  );

const orders = async (s: OperationScope, filter: OrderFilter, limit: number) =>
  queue(
    () => s.em.count(OrderSchema, orderWhere(filter)),
    async () => (await listOrdersOp.run(s, { ...filter, limit })).items,
  );

export const attentionOp = operation({
  action: 'attention.get',
  write: false,
  target: () => ({ type: 'marketplace', id: '' }),
  run: async (s, input: { limit: number }) => {
    const { limit } = input;
    // one entity manager serves one query at a time: the queues are read one after another
    const queues = {
      listings_pending_approval: await listings(s, { status: 'pending_approval' }, limit),
      valuation_requests: await listings(s, { status: 'pending_valuation' }, limit),
      storage_collections: await listings(s, { toCollect: true }, limit),
      orders_disputed: await orders(s, { state: 'disputed' }, limit),
      orders_not_sent: await orders(s, { state: 'purchased', enteredBefore: new Date(s.ctx.clock.now().getTime() - NOT_SENT_ATTENTION_MS) }, limit),
      orders_chargeback: await orders(s, { chargeback: true }, limit),
      payouts_held: await queue(() => countPayouts(s.em, 'held_for_chargeback'), async () => (await heldPayouts(s.em, limit)).map((p) => ({ ...p }))),
      payouts_failed: await queue(() => countPayouts(s.em, 'failed'), async () => (await failedPayouts(s.em, limit)).map((p) => ({ ...p }))),
      support_unanswered: await queue(
        () => supportInboxCount(s.em, { unanswered: true }),
        async () => (await supportInbox(s.em, { unanswered: true, limit })).map(toConsoleConversationBody),
      ),
      webhooks_failing: await (async () => {
        const failing = (await listWebhookEndpoints({ ...s.ctx, em: s.em, marketplace: s.marketplace })).items.filter((e) => e.status !== 'enabled');
        return { count: failing.length, items: failing.slice(0, limit) };
      })(),
    };
    const total = Object.values(queues).reduce((n, q) => n + q.count, 0);
    return { total, not_sent_after_days: NOT_SENT_ATTENTION_MS / 86_400_000, queues };
  },
});
