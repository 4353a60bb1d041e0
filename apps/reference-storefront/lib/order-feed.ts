/**
 * The example use of the API's event feed (`GET /v1/events`, secret key: the storefront's server
 * only, never the browser): an order page waiting for its payment's confirmation waits here for the
 * order's next `order.updated` event instead of re-rendering every 2 s.
 *
 * One reader per storefront process, whatever the number of waiting pages: while anyone waits it
 * reads the feed from its cursor every `intervalMs` (`?after=<cursor>&types=order.updated`, paging
 * with `next_after` while `has_more`), and wakes the waiters of each order it reads an event of.
 * With nobody waiting it stops. Its first read catches up with the feed without waking anyone:
 * callers wait for `caughtUp()`, then read the order once themselves, then wait — an event committed
 * after that read is always seen. A failed read (the API is away) is tried again at the next tick;
 * a waiter's timeout is the fallback (the page then refreshes anyway).
 */

export type FeedPage = { items: { sequence: number; type: string; data: { object: Record<string, unknown> } }[]; next_after: number; has_more: boolean };

export type FeedReader = {
  /** Resolves after a full read of the feed that started after the call (the first one: the catch-up). */
  caughtUp(): Promise<void>;
  /** true when an `order.updated` of the order is read; false after `timeoutMs` or when `signal` aborts. */
  waitForOrder(orderId: string, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<boolean>;
};

export function feedReader(read: (after: number) => Promise<FeedPage>, intervalMs = 1000): FeedReader {
  let cursor: number | null = null; // null: not caught up yet
  let running = false;
  const waiters = new Map<string, Set<() => void>>();
  let roundWaiters: (() => void)[] = [];

  async function readAll(): Promise<void> {
    const wake = cursor !== null;
    let after = cursor ?? 0;
    for (;;) {
      const page = await read(after);
      for (const e of page.items) {
        if (!wake) continue;
        for (const done of waiters.get(String(e.data.object.id)) ?? []) done();
      }
      after = page.next_after;
      cursor = after;
      if (!page.has_more) return;
    }
  }

  async function loop(): Promise<void> {
    running = true;
    try {
      while (waiters.size > 0 || roundWaiters.length > 0) {
        const round = roundWaiters;
        roundWaiters = [];
        try {
          await readAll();
          for (const done of round) done();
        } catch {
          roundWaiters.push(...round); // the API did not answer: the next tick tries again
        }
        if (waiters.size > 0 || roundWaiters.length > 0) await new Promise((r) => setTimeout(r, intervalMs));
      }
    } finally {
      running = false;
    }
  }
  const start = () => {
    if (!running) void loop();
  };

  return {
    caughtUp() {
      return new Promise<void>((resolve) => {
        roundWaiters.push(resolve);
        start();
      });
    },
    waitForOrder(orderId, { timeoutMs, signal }) {
      return new Promise<boolean>((resolve) => {
        const set = waiters.get(orderId) ?? new Set();
        waiters.set(orderId, set);
        const finish = (changed: boolean) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', aborted);
          set.delete(done);
          if (set.size === 0 && waiters.get(orderId) === set) waiters.delete(orderId);
          resolve(changed);
        };
        const done = () => finish(true);
        const aborted = () => finish(false);
        const timer = setTimeout(() => finish(false), timeoutMs);
        if (signal?.aborted) return finish(false);
        signal?.addEventListener('abort', aborted);
        set.add(done);
        start();
      });
    },
  };
}
