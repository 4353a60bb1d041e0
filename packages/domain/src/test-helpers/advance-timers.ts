import { crossTenantEm, type MikroORM } from '@hm/db/orm';
import { z } from 'zod';
import type { Clock } from '../context.js';
import { APPLY_PRICE_DROP_TASK, applyPriceDrop } from '../listings/commands/price-drops.js';
import { claimJob, nextDueJob } from '../shared/jobs.queries.js';

/** The timer jobs a marketplace has (spec rule 5: timers run inside the service), by task. */
const TIMERS: Record<string, (deps: { orm: MikroORM; clock: Clock }, payload: unknown) => Promise<string>> = {
  [APPLY_PRICE_DROP_TASK]: (deps, payload) => {
    const p = z.object({ marketplace_id: z.uuid(), listing_id: z.uuid(), step: z.number().int(), started_at: z.string() }).parse(payload);
    return applyPriceDrop(deps, { marketplaceId: p.marketplace_id, listingId: p.listing_id, step: p.step, startedAt: p.started_at });
  },
};
export const TIMER_TASKS = Object.keys(TIMERS);

export interface TimerRun {
  task: string;
  run_at: string;
  result: string;
}

/**
 * Test mode's time machine: runs this marketplace's timer jobs due by `until`, earliest first, each
 * as if at its due time, including jobs those runs schedule (a price drop schedules the next). A job
 * is claimed by deleting it (`complete_jobs`), so a worker never runs the same one.
 */
export async function advanceTimers(orm: MikroORM, marketplaceId: string, until: Date): Promise<TimerRun[]> {
  const runs: TimerRun[] = [];
  const queue = crossTenantEm(orm);
  for (let guard = 0; guard < 1000; guard++) {
    const job = await nextDueJob(queue, TIMER_TASKS, marketplaceId, until);
    if (!job) break;
    if (!(await claimJob(queue, job.id))) continue; // a worker took it meanwhile
    const at = new Date(job.run_at);
    const result = await TIMERS[job.task_identifier]!({ orm, clock: { now: () => at } }, job.payload);
    runs.push({ task: job.task_identifier, run_at: at.toISOString(), result });
  }
  return runs;
}
