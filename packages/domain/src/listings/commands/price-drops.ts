import { ListingSchema, MarketplaceSchema, type Listing } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { tenantEm, type MikroORM } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import { z } from 'zod';
import type { Clock } from '../../core/context.js';
import { addJob, jobKey, removeJob } from '../../core/jobs.js';
import { defineTask } from '../../core/tasks.js';
import { announcingUpdate } from '../listing.events.js';
import { nextStep } from '../price-schedule.js';

/** Schedules the job of the next step not yet applied (one job per listing: the key replaces a waiting one). */
export async function scheduleNextDrop(em: EntityManager, l: Listing): Promise<void> {
  const next = l.status === 'published' ? nextStep(l) : undefined;
  if (!next) {
    await removeJob(em, jobKey(applyPriceDropTask, l.id));
    return;
  }
  await addJob(
    em,
    applyPriceDropTask,
    { marketplace_id: l.marketplaceId, listing_id: l.id, step: next.index, started_at: l.scheduleStartedAt!.toISOString() },
    { jobKey: jobKey(applyPriceDropTask, l.id), runAt: next.on },
  );
}

/**
 * The schedule (re)starts now: when the listing goes on sale, or its schedule changes while on
 * sale. Steps count from here and none is applied yet.
 */
export async function startSchedule(em: EntityManager, l: Listing, now: Date): Promise<void> {
  if (l.priceSchedule?.length) {
    l.scheduleStartedAt = now;
    l.priceSchedule = l.priceSchedule.map((s) => ({ months: s.months, amount: s.amount }));
  } else {
    l.scheduleStartedAt = null;
  }
  await scheduleNextDrop(em, l);
}

export interface DropRef {
  marketplaceId: string;
  listingId: string;
  step: number;
  startedAt: string;
}

/**
 * The `apply-price-drop` job: sets the step's price and marks it done, then schedules the next
 * step; a step that would not lower the current price is marked done and leaves the price as it
 * is (`not_a_drop`). It re-checks everything first (still on sale, same schedule, step not applied,
 * its date reached), so it is safe to run twice or late, and a stale job does nothing.
 */
export async function applyPriceDrop(deps: { orm: MikroORM; clock: Clock }, ref: DropRef): Promise<'applied' | 'not_a_drop' | 'skipped'> {
  const em = tenantEm(deps.orm, ref.marketplaceId);
  return em.transactional(async (tx) => {
    const l = await tx.findOne(ListingSchema, { id: ref.listingId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!l || l.status !== 'published' || l.scheduleStartedAt?.toISOString() !== ref.startedAt) return 'skipped';
    const next = nextStep(l);
    if (!next || next.index !== ref.step || next.on > deps.clock.now()) return 'skipped';
    // a drop never raises the price (the seller lowered it by hand below the step, or the schedule
    // restarted below a step already passed): the step's date has come, so it is done, unapplied
    const lowers = typeof l.priceAmount === 'number' && next.step.amount < l.priceAmount;
    const marketplace = await tx.findOneOrFail(MarketplaceSchema, { id: ref.marketplaceId });
    const now = deps.clock.now();
    await announcingUpdate(tx, marketplace, l, now, async () => {
      if (lowers) l.priceAmount = next.step.amount;
      l.priceSchedule = l.priceSchedule!.map((s, i) => (i === next.index ? { ...s, done: true } : s));
      l.updatedAt = now;
      await tx.flush();
    });
    await scheduleNextDrop(tx, l);
    return lowers ? 'applied' : 'not_a_drop';
  });
}

/**
 * Declared here rather than in a file of its own: the command that runs it also schedules the next
 * step, so a separate task file would import this module and be imported by it.
 */
export const applyPriceDropTask = defineTask({
  name: 'apply-price-drop',
  payload: z.object({ marketplace_id: z.uuid(), listing_id: z.uuid(), step: z.number().int().min(0), started_at: z.string() }),
  timer: true,
  run: (p, ctx) => applyPriceDrop(ctx, { marketplaceId: p.marketplace_id, listingId: p.listing_id, step: p.step, startedAt: p.started_at }),
});
