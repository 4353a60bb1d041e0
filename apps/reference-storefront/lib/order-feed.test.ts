import { describe, expect, test } from 'vitest';
import { feedReader, type FeedPage } from './order-feed';

/** An in-memory feed with the API's paging: `after`, at most `limit` per page, `next_after`, `has_more`. */
function fakeFeed(limit = 2) {
  const events: FeedPage['items'] = [];
  const reads: number[] = [];
  let failures = 0;
  return {
    reads,
    append: (orderId: string) => events.push({ sequence: events.length + 1, type: 'order.updated', data: { object: { id: orderId } } }),
    failNext: (n: number) => (failures = n),
    read: async (after: number): Promise<FeedPage> => {
      reads.push(after);
      if (failures > 0) {
        failures--;
        throw new Error('the API is away');
      }
      const items = events.filter((e) => e.sequence > after).slice(0, limit);
      return { items, next_after: items.at(-1)?.sequence ?? after, has_more: events.some((e) => e.sequence > (items.at(-1)?.sequence ?? after) ) };
    },
  };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the order feed reader', () => {
  test('the catch-up pages to the end without waking anyone; the next event of the order wakes its waiters, not others', async () => {
    const feed = fakeFeed();
    for (const id of ['a', 'b', 'a', 'c', 'a']) feed.append(id); // older than the wait: three pages
    const reader = feedReader(feed.read, 5);
    await reader.caughtUp();
    expect(feed.reads).toEqual([0, 2, 4]);
    const a1 = reader.waitForOrder('a', { timeoutMs: 2000 });
    const a2 = reader.waitForOrder('a', { timeoutMs: 2000 });
    let bWoke: boolean | undefined;
    const b = reader.waitForOrder('b', { timeoutMs: 300 }).then((v) => (bWoke = v));
    await sleep(30);
    expect(bWoke).toBeUndefined();
    feed.append('c');
    feed.append('a');
    expect(await Promise.all([a1, a2])).toEqual([true, true]);
    expect(await b).toBe(false); // its order had no event: the timeout
    expect(feed.reads.filter((after) => after < 5)).toEqual([0, 2, 4]); // never read from before its cursor again
  });

  test('with nobody waiting it stops reading; an aborted wait answers false at once', async () => {
    const feed = fakeFeed();
    const reader = feedReader(feed.read, 5);
    await reader.caughtUp();
    const controller = new AbortController();
    const waiting = reader.waitForOrder('x', { timeoutMs: 60_000, signal: controller.signal });
    await sleep(20);
    controller.abort();
    expect(await waiting).toBe(false);
    await sleep(20);
    const reads = feed.reads.length;
    await sleep(50);
    expect(feed.reads.length).toBe(reads);
    expect(await reader.waitForOrder('x', { timeoutMs: 1000, signal: AbortSignal.abort() })).toBe(false);
  });

  test('a failed read is tried again at the next tick: the catch-up and the wake still happen', async () => {
    const feed = fakeFeed();
    feed.append('a');
    feed.failNext(2);
    const reader = feedReader(feed.read, 5);
    await reader.caughtUp();
    expect(feed.reads).toEqual([0, 0, 0]);
    const waiting = reader.waitForOrder('a', { timeoutMs: 2000 });
    feed.failNext(1);
    feed.append('a');
    expect(await waiting).toBe(true);
  });
});
