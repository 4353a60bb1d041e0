import { tmpdir } from 'node:os';
import { expect, inject, test } from 'vitest';
import { MarketplaceSchema } from '@hm/db/entities';
import { createOrm } from '@hm/db/orm';
import { createTestDatabase } from '@hm/db/testing';
import { applyPriceDropTask } from '@hm/domain/listings';
import { localPorts } from '@hm/domain/ports';
import { advanceTimers, TIMER_TASKS } from './advance-timers.js';

const rules = { min_images: 1, require_approval: false, require_category: false, required_terms: [], valuations: false };

test('runs only this marketplace’s due timers, each parsed with its task’s schema; a bad payload is claimed and reported', async () => {
  const orm = await createOrm(await createTestDatabase(inject('adminDatabaseUrl')), { poolMax: 2 });
  try {
    const em = orm.em.fork();
    const [a, b] = ['a', 'b'].map((slug) =>
      em.create(MarketplaceSchema, { name: slug, slug, currencies: ['EUR'], locales: ['en'], termKinds: [], listingRules: rules, shipping: { sizes: [], zones: [] }, commissionPercent: 10 }),
    );
    await em.flush();
    const db = orm.em.getConnection();
    const add = (payload: object, runAt: string) => db.execute(`select graphile_worker.add_job(?, ?::json, run_at => ?)`, [applyPriceDropTask.name, JSON.stringify(payload), runAt]);
    const listing = '00000000-0000-7000-8000-000000000001';
    // a stale drop (no such listing): parsed and run, the command skips it
    await add({ marketplace_id: a!.id, listing_id: listing, step: 0, started_at: '2026-01-01T00:00:00.000Z' }, '2026-02-01T00:00:00Z');
    // a payload its schema refuses
    await add({ marketplace_id: a!.id, listing_id: 'not-a-uuid' }, '2026-02-02T00:00:00Z');
    // not due yet, and another marketplace's: both stay
    await add({ marketplace_id: a!.id, listing_id: listing, step: 1, started_at: '2026-01-01T00:00:00.000Z' }, '2026-05-01T00:00:00Z');
    await add({ marketplace_id: b!.id, listing_id: listing, step: 0, started_at: '2026-01-01T00:00:00.000Z' }, '2026-02-01T00:00:00Z');

    const runs = await advanceTimers({ ...localPorts({ dataDir: tmpdir(), mode: 'test' }), orm, mode: 'test' }, a!.id, new Date('2026-03-01T00:00:00Z'));

    expect(TIMER_TASKS).toEqual(['apply-price-drop', 'expire-payment', 'auto-cancel-order', 'auto-receive-order', 'auto-cancel-dispute', 'notify-messages', 'deliver-webhook']);
    expect(runs).toHaveLength(2);
    expect(runs[0]).toEqual({ task: 'apply-price-drop', run_at: '2026-02-01T00:00:00.000Z', result: 'skipped' });
    expect(runs[1]).toMatchObject({ task: 'apply-price-drop', run_at: '2026-02-02T00:00:00.000Z' });
    expect(runs[1]!.result).toMatch(/^rejected: payload .* does not match the task: .*listing_id/);
    const left = await db.execute<{ run_at: Date }[]>(`select run_at from graphile_worker.jobs order by run_at`);
    expect(left.map((j) => new Date(j.run_at).toISOString())).toEqual(['2026-02-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z']);
  } finally {
    await orm.close(true);
  }
});
