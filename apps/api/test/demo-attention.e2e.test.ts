import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seedDemo } from '@hm/domain/demo';
import { demoLogins, seedDemoShop } from '@hm/domain/demo-shop';
import { startHarness, type Harness } from './harness.js';

/**
 * The demo leaves work for the team (issue 26 item 6): the back office's attention list is not empty
 * on a first start, and a restart adds nothing to it.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedDemo(h.orm, { mode: 'test', storefrontUrl: 'https://demo.example', today: '2026-11-22' });
});
afterAll(() => h.close());

const logins = demoLogins({ buyer: 'buyer password 1', seller: 'seller password 1' });

/** A start of the demo shop with the job worker beside it (the work listings' photos are made by it). */
async function start() {
  let done = false;
  const seeding = seedDemoShop({ orm: h.orm, ports: h.ports }, { logins, listings: 0, pollMs: 20 }).finally(() => (done = true));
  while (!done) {
    await h.runJobs();
    await sleep(20);
  }
  return seeding;
}

test('a first start leaves an unanswered support conversation; a restart adds nothing', async () => {
  await start();
  const first = await h.console.attention({ marketplace: 'demo' });
  expect(first.queues.support_unanswered.count).toBe(1);
  const id = (first.queues.support_unanswered.items[0] as { id: string }).id;

  await start();
  const again = await h.console.attention({ marketplace: 'demo' });
  expect(again.queues.support_unanswered.count).toBe(1);
  expect((await h.console.conversations.get({ id })).messages).toHaveLength(1);

  // answered by the team, a restart does not ask again
  await h.console.support.reply({ conversation: id, body: 'Yes, we collect in Stockholm.' });
  await start();
  expect((await h.console.attention({ marketplace: 'demo' })).queues.support_unanswered.count).toBe(0);
});

test('a first start leaves two listings waiting for approval and one valuation request; a restart adds nothing', async () => {
  await start();
  const first = await h.console.attention({ marketplace: 'demo', limit: 50 });
  expect(first.queues.listings_pending_approval.count).toBe(2);
  expect(first.queues.valuation_requests.count).toBe(1);
  const ids = (q: { items: unknown[] }) => q.items.map((l) => (l as { id: string }).id).sort();
  await start();
  const again = await h.console.attention({ marketplace: 'demo', limit: 50 });
  expect(ids(again.queues.listings_pending_approval)).toEqual(ids(first.queues.listings_pending_approval));
  expect(ids(again.queues.valuation_requests)).toEqual(ids(first.queues.valuation_requests));
  // the team approves one: a restart does not put it back in the queue
  await h.console.listings.approve({ id: ids(first.queues.listings_pending_approval)[0]! });
  await start();
  expect((await h.console.attention({ marketplace: 'demo', limit: 50 })).queues.listings_pending_approval.count).toBe(1);
}, 120_000);
