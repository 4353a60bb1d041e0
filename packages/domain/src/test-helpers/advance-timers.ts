import { TASKS } from '../tasks.js';
import { runTask, type TaskContext, type TaskDefinition } from '../shared/tasks.js';

/** The timer tasks (spec rule 5: timers run inside the service): the task definitions marked `timer`. */
const TIMERS = new Map<string, TaskDefinition<TaskDefinition['payload'], TaskContext>>(TASKS.filter((t) => t.timer).map((t) => [t.name, t]));
export const TIMER_TASKS = [...TIMERS.keys()];

export interface TimerRun {
  task: string;
  run_at: string;
  result: string;
}

type Connection = ReturnType<TaskContext['orm']['em']['getConnection']>;

interface DueJob {
  id: string;
  task_identifier: string;
}

/**
 * The earliest waiting timer job of a marketplace that is due by `until`.
 *
 * This is the one place that reads graphile-worker's private tables. graphile-worker 0.18 has no
 * public way to read a waiting job's payload: the public `graphile_worker.jobs` view leaves the
 * payload out, WorkerUtils has no query for jobs, and the SQL functions that return a payload
 * (`complete_jobs`, `permanently_fail_jobs`, `reschedule_jobs`) change the job first. The
 * marketplace a timer belongs to is only in its payload (`marketplace_id`, required of timers by
 * `defineTask`), so finding "this marketplace's due timers" needs the private `_private_jobs`
 * table. It is read, never written; graphile-worker is pinned, so its schema cannot move under us.
 */
async function nextDueTimer(db: Connection, marketplaceId: string, until: Date): Promise<DueJob | undefined> {
  const [job] = await db.execute<DueJob[]>(
    `select j.id, t.identifier as task_identifier
       from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier in (${TIMER_TASKS.map(() => '?').join(', ')}) and j.payload->>'marketplace_id' = ? and j.run_at <= ? and j.locked_at is null
      order by j.run_at, j.id limit 1`,
    [...TIMER_TASKS, marketplaceId, until],
  );
  return job;
}

/**
 * Test mode's time machine: runs this marketplace's timer jobs due by `until`, earliest first, each
 * as if at its due time, including jobs those runs schedule (a price drop schedules the next). A job
 * is claimed by deleting it through the public `complete_jobs`, so a worker never runs the same one;
 * the claimed row is the job as it was at that moment (payload and `run_at`).
 */
export async function advanceTimers(ctx: TaskContext, marketplaceId: string, until: Date): Promise<TimerRun[]> {
  const runs: TimerRun[] = [];
  const db = ctx.orm.em.getConnection();
  for (let guard = 0; guard < 1000; guard++) {
    const due = await nextDueTimer(db, marketplaceId, until);
    if (!due) break;
    const [claimed] = await db.execute<{ payload: unknown; run_at: Date }[]>(`select payload, run_at from graphile_worker.complete_jobs(array[?]::bigint[])`, [due.id]);
    if (!claimed) continue; // a worker took it meanwhile
    const at = new Date(claimed.run_at);
    const run = await runTask(TIMERS.get(due.task_identifier)!, claimed.payload, { ...ctx, clock: { now: () => at } });
    runs.push({ task: due.task_identifier, run_at: at.toISOString(), result: run.ok ? run.outcome : `rejected: ${run.problem}` });
  }
  return runs;
}
