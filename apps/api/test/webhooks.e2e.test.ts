import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { emailsTo, signUp } from './harness.js';
import { ordersSuite, type Market, type Person } from './orders.suite.js';
import { startReceiver, type Received } from './webhook-receiver.js';

/**
 * Webhooks (issue 27): events pushed to endpoints signed per Standard Webhooks, retried on the
 * standard schedule by the timers, with a delivery log and secret rotation (the feed itself:
 * events.e2e.test.ts).
 */
const suite = ordersSuite();
let shop: Market;
let seller: Person;
beforeAll(() => {
  ({ shop, seller } = suite);
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('webhooks', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let url: string;
  let received: Received[];
  let answers: number[];
  beforeAll(async () => {
    receiver = await startReceiver((status) => (status === 200 ? 'ok' : 'x'.repeat(5000)));
    ({ url, received, answers } = receiver);
  });
  afterAll(() => receiver.close());

  /** The package's own verifier, at the timestamp the webhook carries (the service runs on the test clock). */
  function verify(secret: string, r: Received) {
    const at = Number(r.headers['webhook-timestamp']) * 1000;
    const now = vi.spyOn(Date, 'now').mockReturnValue(at);
    try {
      return new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as Json;
    } finally {
      now.mockRestore();
    }
  }
  const now = () => suite.h.clock.now();

  test('create prints the id and a whsec_ secret once; a receiver answering 500 then 200 gets the same webhook-id again after the timers advance; the log shows both attempts', async () => {
    const created = await suite.h.console.webhooks.create({ marketplace: 'shop', url, events: 'user.created' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.endpoint).toMatchObject({ url, events: ['user.created'], enabled: true, status: 'enabled' });
    const listed = await suite.h.console.webhooks.list({ marketplace: 'shop' });
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    answers.push(500, 200);
    received.length = 0;
    await signUp(suite.h, shop.secret, { email: 'hooked@example.com' });
    await suite.listing(shop, seller); // not subscribed: nothing sent
    await suite.advance(shop, now());
    expect(received).toHaveLength(1);
    const first = verify(created.secret, received[0]!);
    expect(first).toMatchObject({ type: 'user.created', data: { object: { email: 'hooked@example.com' } } });
    expect(received[0]!.headers['webhook-id']).toBe(first.id);
    expect(received[0]!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    // the next attempt is due 5 s later, not before
    await suite.advance(shop, new Date(now().getTime() + 4000));
    expect(received).toHaveLength(1);
    await suite.advance(shop, new Date(now().getTime() + 6000));
    expect(received).toHaveLength(2);
    expect(received[1]!.headers['webhook-id']).toBe(first.id);
    expect(verify(created.secret, received[1]!).id).toBe(first.id);

    const log = await suite.h.console.webhooks.deliveries({ marketplace: 'shop', id: created.endpoint.id });
    expect(log.items.map((a) => [a.attempt, a.status_code, a.delivery_status])).toEqual([
      [2, 200, 'delivered'],
      [1, 500, 'delivered'],
    ]);
    expect(log.items[1]!.response).toHaveLength(1024); // the first 1 KB of the response
    expect(log.items[1]!.error).toBe('HTTP 500');

    // replay: the same event, the same webhook-id, a new delivery
    await suite.h.console.webhooks.replay({ marketplace: 'shop', id: created.endpoint.id, event: first.id });
    await suite.advance(shop, new Date(now().getTime() + 1000));
    expect(received.at(-1)!.headers['webhook-id']).toBe(first.id);
    await suite.h.console.webhooks.delete({ marketplace: 'shop', id: created.endpoint.id });
  });

  test('deliveries to one endpoint recorded at once wait for each other: none fails (no deadlock), each arrives once', async () => {
    const { endpoint } = await suite.h.console.webhooks.create({ marketplace: 'shop', url, events: 'user.created' });
    answers.length = 0;
    received.length = 0;
    for (let i = 0; i < 16; i++) await signUp(suite.h, shop.secret, { email: `at-once-${i}@example.com` });
    await Promise.all(Array.from({ length: 6 }, () => suite.advance(shop, now())));
    const errors = await suite.h.orm.em.getConnection().execute<{ last_error: string }[]>(`select last_error from graphile_worker.jobs where task_identifier = 'deliver-webhook' and last_error is not null`);
    expect(errors.map((e) => e.last_error)).toEqual([]);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(16);
    await suite.h.console.webhooks.delete({ marketplace: 'shop', id: endpoint.id });
  });

  test('a rotated secret: both sign for 24 hours, then only the new one', async () => {
    const { endpoint, secret: old } = await suite.h.console.webhooks.create({ marketplace: 'shop', url, events: '*' });
    const { secret: fresh } = await suite.h.console.webhooks.rotateSecret({ marketplace: 'shop', id: endpoint.id });
    expect(fresh).not.toBe(old);
    received.length = 0;
    await signUp(suite.h, shop.secret, { email: 'rotated@example.com' });
    await suite.advance(shop, now());
    expect(received).toHaveLength(1);
    expect(String(received[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(fresh, received[0]!).type).toBe('user.created');
    expect(verify(old, received[0]!).type).toBe('user.created');

    suite.h.clock.advance(24 * 3600 * 1000 + 1000);
    await signUp(suite.h, shop.secret, { email: 'rotated-later@example.com' });
    await suite.advance(shop, now());
    const later = received.at(-1)!;
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(fresh, later).data.object.email).toBe('rotated-later@example.com');
    expect(() => verify(old, later)).toThrow();
    await suite.h.console.webhooks.delete({ marketplace: 'shop', id: endpoint.id });
  });

  test('a secret that no longer opens (the secrets key changed) is a failed attempt the log explains, never a crash', async () => {
    const { endpoint } = await suite.h.console.webhooks.create({ marketplace: 'shop', url, events: 'user.created' });
    await suite.h.orm.em.getConnection().execute(`update webhook_endpoints set secret = decode(repeat('00', 40), 'hex') where id = ?`, [endpoint.id]);
    received.length = 0;
    await signUp(suite.h, shop.secret, { email: 'unopened@example.com' });
    await suite.advance(shop, now());
    expect(received).toHaveLength(0);
    const log = await suite.h.console.webhooks.deliveries({ marketplace: 'shop', id: endpoint.id });
    expect(log.items[0]).toMatchObject({ attempt: 1, status_code: null, error: expect.stringContaining('rotate the endpoint secret'), delivery_status: 'pending' });
    await suite.h.console.webhooks.delete({ marketplace: 'shop', id: endpoint.id });
  });

  test('after the last attempt the delivery fails and the endpoint shows as failing; after 5 days disabled and the team emailed once; unknown event types and bad URLs are 422', async () => {
    await suite.h.console.marketplace.update({ marketplace: 'shop', settings: { alert_email: 'hooks-team@example.com' } });
    const { endpoint } = await suite.h.console.webhooks.create({ marketplace: 'shop', url, events: 'user.created' });
    answers.length = 0;
    answers.push(...Array(8).fill(503));
    received.length = 0;
    await signUp(suite.h, shop.secret, { email: 'failing@example.com' });
    await suite.advance(shop, new Date(now().getTime() + 2 * 24 * 3600 * 1000));
    expect(received).toHaveLength(8);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const [listed] = (await suite.h.console.webhooks.list({ marketplace: 'shop' })).items.filter((e) => e.id === endpoint.id);
    expect(listed).toMatchObject({ status: 'failing', enabled: true });
    const log = await suite.h.console.webhooks.deliveries({ marketplace: 'shop', id: endpoint.id });
    expect(log.items[0]).toMatchObject({ attempt: 8, status_code: 503, delivery_status: 'failed' });
    const failingSince = listed!.failing_since as string;
    expect(await emailsTo(suite.h, shop.secret, 'hooks-team@example.com')).toEqual([]); // failing is not yet disabled

    // failing for 5 days with no success: disabled at the next failure, and nothing more is sent
    suite.h.clock.advance(5 * 24 * 3600 * 1000);
    answers.push(503);
    await signUp(suite.h, shop.secret, { email: 'failing-later@example.com' });
    await suite.advance(shop, now());
    expect(received).toHaveLength(9);
    const [disabled] = (await suite.h.console.webhooks.list({ marketplace: 'shop' })).items.filter((e) => e.id === endpoint.id);
    expect(disabled).toMatchObject({ status: 'disabled', enabled: false, disabled_reason: expect.stringContaining('5 days') });
    // one email to the team: which endpoint, since when, the last error, the command that turns it on again
    const alerts = await emailsTo(suite.h, shop.secret, 'hooks-team@example.com');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.subject).toContain(url);
    expect(alerts[0]!.text).toContain(`${endpoint.id} (${url})`);
    expect(alerts[0]!.text).toContain(`failed since ${failingSince}`);
    expect(alerts[0]!.text).toContain('The last error: HTTP 503');
    expect(alerts[0]!.text).toContain(`npm run console -- webhooks update --marketplace shop --id ${endpoint.id} --enabled true`);
    await signUp(suite.h, shop.secret, { email: 'after-disabled@example.com' });
    await suite.advance(shop, new Date(now().getTime() + 3 * 24 * 3600 * 1000));
    expect(received).toHaveLength(9);
    expect(await emailsTo(suite.h, shop.secret, 'hooks-team@example.com')).toHaveLength(1);
    // enabled again: its failing state starts anew
    const enabled = await suite.h.console.webhooks.update({ marketplace: 'shop', id: endpoint.id, enabled: true });
    expect(enabled.endpoint).toMatchObject({ status: 'enabled', enabled: true });
    expect(enabled.endpoint).not.toHaveProperty('failing_since');
    await suite.h.console.webhooks.delete({ marketplace: 'shop', id: endpoint.id });

    await expect(suite.h.console.webhooks.create({ marketplace: 'shop', url: 'ftp://example.com/x', events: 'order.paid,user.created' })).rejects.toMatchObject({
      cause: { errors: [expect.objectContaining({ location: 'url' }), expect.objectContaining({ location: 'events', value: 'order.paid' })] },
    });
  });
});

