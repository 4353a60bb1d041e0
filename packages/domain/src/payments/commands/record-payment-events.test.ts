import { tmpdir } from 'node:os';
import { expect, inject, test } from 'vitest';
import { MarketplaceSchema } from '@hm/db/entities';
import { createOrm, tenantEm } from '@hm/db/orm';
import { createTestDatabase } from '@hm/db/testing';
import { localPorts } from '../../local-ports.js';
import type { PaymentEvent } from '../../core/ports/payments.js';
import { handlePaymentEvent } from '../../flows/payment-events.js';
import { recordPaymentEvents } from './record-payment-events.js';

const rules = { min_images: 1, require_approval: false, require_category: false, required_terms: [], valuations: false };

test('events are stored once by provider id, each new one with one job; the job dispatches by type, once', async () => {
  const orm = await createOrm(await createTestDatabase(inject('adminDatabaseUrl')), { poolMax: 2 });
  try {
    const em = orm.em.fork();
    const shop = em.create(MarketplaceSchema, { name: 'a', slug: 'a', currencies: ['EUR'], locales: ['en'], termKinds: [], listingRules: rules, shipping: { sizes: [], zones: [] }, commissionPercent: 10 });
    await em.flush();
    const ctx = { ...localPorts({ dataDir: tmpdir(), mode: 'test' }), orm, mode: 'test' as const };
    const orderId = crypto.randomUUID();
    const event = (id: string, type: string, over: Partial<PaymentEvent> = {}): PaymentEvent => ({
      id,
      type,
      provider: 'stripe',
      paymentId: 'pi_1',
      marketplaceId: shop.id,
      orderId,
      createdAt: new Date('2026-11-24T10:00:00Z'),
      data: { id: 'pi_1', object: 'payment_intent' },
      ...over,
    });
    const events = [
      event('evt_paid', 'payment_intent.succeeded'),
      event('evt_declined', 'payment_intent.payment_failed'),
      // a dispute names only the payment: it belongs to the marketplace and order of that payment's earlier events
      event('evt_dispute', 'charge.dispute.created', { marketplaceId: undefined, orderId: undefined, data: { id: 'dp_1', object: 'dispute', payment_intent: 'pi_1' } }),
      event('evt_unknown', 'customer.created', { paymentId: undefined }),
      // a marketplace this database does not have (another deployment sharing the provider account), and metadata that is no id at all
      event('evt_elsewhere', 'payment_intent.succeeded', { paymentId: 'pi_2', marketplaceId: crypto.randomUUID() }),
      event('evt_garbled', 'payment_intent.succeeded', { paymentId: 'pi_3', marketplaceId: 'not-a-uuid', orderId: 'nope' }),
    ];
    const first = await recordPaymentEvents(ctx, events);
    expect(first.map((r) => [r.id, r.stored])).toEqual(events.map((e) => [e.id, true]));
    // a replay (Stripe retries; the test helper twice) stores nothing and adds no job
    const replay = await recordPaymentEvents(ctx, [events[0]!, events[3]!]);
    expect(replay.map((r) => r.stored)).toEqual([false, false]);

    const db = orm.em.getConnection();
    const rows = await db.execute<{ id: string; provider_event_id: string; marketplace_id: string | null; order_id: string | null }[]>(
      `select id, provider_event_id, marketplace_id, order_id from payment_events order by provider_event_id`,
    );
    const byEvent = Object.fromEntries(rows.map((r) => [r.provider_event_id, r]));
    expect(rows.map((r) => [r.provider_event_id, r.marketplace_id, r.order_id])).toEqual([
      ['evt_declined', shop.id, orderId],
      ['evt_dispute', shop.id, orderId],
      ['evt_elsewhere', null, null],
      ['evt_garbled', null, null],
      ['evt_paid', shop.id, orderId],
      ['evt_unknown', shop.id, orderId],
    ]);
    const jobs = await db.execute<{ key: string }[]>(`select key from graphile_worker.jobs where task_identifier = 'handle-payment-event' order by key`);
    expect(jobs.map((j) => j.key)).toEqual(rows.map((r) => `handle-payment-event:${r.id}`).sort());

    const outcomes: Record<string, string> = {};
    for (const r of rows) outcomes[r.provider_event_id] = await handlePaymentEvent(ctx, r.id);
    expect(outcomes).toEqual({
      evt_paid: `confirm-payment queued for order ${orderId}`,
      evt_declined: 'recorded: payment failed; the order keeps waiting for payment',
      // the dispute reaches the payouts' handler, which finds no such order here
      evt_dispute: `ignored: no order ${orderId}`,
      evt_unknown: 'ignored: customer.created is not an event we act on',
      evt_elsewhere: 'ignored: the event names no marketplace of ours',
      evt_garbled: 'ignored: the event names no marketplace of ours',
    });
    // a second run (retry, duplicate job) changes nothing
    expect(await handlePaymentEvent(ctx, byEvent.evt_paid!.id)).toBe(`already handled: confirm-payment queued for order ${orderId}`);
    expect(await handlePaymentEvent(ctx, byEvent.evt_elsewhere!.id)).toMatch(/^already handled/);
    const open = await db.execute(`select 1 from payment_events where handled_at is null`);
    expect(open).toEqual([]);

    // row-level security: the marketplace sees its own events only, not those of no marketplace
    const seen = await tenantEm(orm, shop.id).execute<{ n: number }[]>(`select count(*)::int as n from payment_events`);
    expect(seen[0]!.n).toBe(4);
  } finally {
    await orm.close(true);
  }
});
