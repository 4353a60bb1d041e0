import { crossTenantEm } from '@hm/db/orm';
import { TASKS } from '@hm/domain/tasks';
import { runTask, type TaskContext, type TaskDefinition } from '@hm/domain/core';
import { claimJob, nextDueJob } from '@hm/domain/core';

/** The timer tasks (spec rule 5: timers run inside the service): the task definitions marked `timer`. */
const TIMERS = new Map<string, TaskDefinition<TaskDefinition['payload'], TaskContext>>(TASKS.filter((t) => t.timer).map((t) => [t.name, t]));
export const TIMER_TASKS = [...TIMERS.keys()];

export interface TimerRun {
  task: string;
  run_at: string;
  result: string;
}

/**
 * Test mode's time machine: runs this marketplace's timer jobs due by `until`, earliest first, each
 * as if at its due time, including jobs those runs schedule (a price drop schedules the next). A job
 * is claimed by deleting it through the public `complete_jobs`, so a worker never runs the same one;
 * the claimed row is the job as it was at that moment (payload and `run_at`).
 */
export async function advanceTimers(ctx: TaskContext, marketplaceId: string, until: Date): Promise<TimerRun[]> {
  const runs: TimerRun[] = [];
  const queue = crossTenantEm(ctx.orm);
  for (let guard = 0; guard < 1000; guard++) {
    const due = await nextDueJob(queue, TIMER_TASKS, marketplaceId, until);
    if (!due) break;
    const claimed = await claimJob(queue, due.id);
    if (!claimed) continue; // a worker took it meanwhile
    const at = new Date(claimed.run_at);
    const run = await runTask(TIMERS.get(due.task_identifier)!, claimed.payload, { ...ctx, clock: { now: () => at } });
    runs.push({ task: due.task_identifier, run_at: at.toISOString(), result: run.ok ? run.outcome : `rejected: ${run.problem}` });
  }
  return runs;
}
