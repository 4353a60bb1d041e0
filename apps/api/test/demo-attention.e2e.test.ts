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

test('a first start leaves an unanswered support conversation; a restart adds nothing', async () => {
  await seedDemoShop({ orm: h.orm, ports: h.ports }, { logins, listings: 0 });
  const first = await h.console.attention({ marketplace: 'demo' });
  expect(first.queues.support_unanswered.count).toBe(1);
  const id = (first.queues.support_unanswered.items[0] as { id: string }).id;

  await seedDemoShop({ orm: h.orm, ports: h.ports }, { logins, listings: 0 });
  const again = await h.console.attention({ marketplace: 'demo' });
  expect(again.queues.support_unanswered.count).toBe(1);
  expect((await h.console.conversations.get({ id })).messages).toHaveLength(1);

  // answered by the team, a restart does not ask again
  await h.console.support.reply({ conversation: id, body: 'Yes, we collect in Stockholm.' });
  await seedDemoShop({ orm: h.orm, ports: h.ports }, { logins, listings: 0 });
  expect((await h.console.attention({ marketplace: 'demo' })).queues.support_unanswered.count).toBe(0);
});
