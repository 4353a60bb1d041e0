import { ListingSchema, type Listing } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { tenantEm, type MikroORM } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import type { Clock } from '../../context.js';
import { addJob } from '../../shared/jobs.js';
import { removeJob } from '../../shared/jobs.queries.js';
import { nextStep } from '../price-schedule.js';

export const APPLY_PRICE_DROP_TASK = 'apply-price-drop';
export const priceDropJobKey = (listingId: string) => `${APPLY_PRICE_DROP_TASK}:${listingId}`;

/** Schedules the job of the next step not yet applied (one job per listing: the key replaces a waiting one). */
export async function scheduleNextDrop(em: EntityManager, l: Listing): Promise<void> {
  const next = l.status === 'published' ? nextStep(l) : undefined;
  if (!next) {
    await removeJob(em, priceDropJobKey(l.id));
    return;
  }
  await addJob(
    em,
    APPLY_PRICE_DROP_TASK,
    { marketplace_id: l.marketplaceId, listing_id: l.id, step: next.index, started_at: l.scheduleStartedAt!.toISOString() },
    { jobKey: priceDropJobKey(l.id), runAt: next.on },
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
 * step. It re-checks everything first (still on sale, same schedule, step not applied, its date
 * reached), so it is safe to run twice or late, and a stale job does nothing.
 */
export async function applyPriceDrop(deps: { orm: MikroORM; clock: Clock }, ref: DropRef): Promise<'applied' | 'skipped'> {
  const em = tenantEm(deps.orm, ref.marketplaceId);
  return em.transactional(async (tx) => {
    const l = await tx.findOne(ListingSchema, { id: ref.listingId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!l || l.status !== 'published' || l.scheduleStartedAt?.toISOString() !== ref.startedAt) return 'skipped';
    const next = nextStep(l);
    if (!next || next.index !== ref.step || next.on > deps.clock.now()) return 'skipped';
    l.priceAmount = next.step.amount;
    l.priceSchedule = l.priceSchedule!.map((s, i) => (i === next.index ? { ...s, done: true } : s));
    l.updatedAt = deps.clock.now();
    await tx.flush();
    await scheduleNextDrop(tx, l);
    return 'applied';
  });
}
