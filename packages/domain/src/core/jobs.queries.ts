import type { EntityManager } from '@hm/db/orm';
import { crossTenantSql, jobSql } from '@hm/db/sql';

/**
 * graphile-worker's queue is one table for every tenant. A tenant adds and removes jobs only through
 * `hm_add_job`/`hm_remove_job` (migrations `…_row_level_security`, `…_job_priority`), which refuse a job that does not
 * carry the tenant's marketplace; reading the queue itself crosses tenants and says so.
 */

export async function insertJob(em: EntityManager, task: string, payloadJson: string, opts: { jobKey?: string; runAt?: Date; maxAttempts?: number; priority?: number }): Promise<void> {
  await jobSql(em)`select hm_add_job(${task}, ${payloadJson}::json, job_key => ${opts.jobKey ?? null}, run_at => ${opts.runAt ?? null}, max_attempts => ${opts.maxAttempts ?? null}, priority => ${opts.priority ?? null})`;
}

/** Removes the waiting job with this key (a job being run is left to finish and re-check its entity). */
export async function removeJob(em: EntityManager, jobKey: string): Promise<void> {
  await jobSql(em)`select hm_remove_job(${jobKey})`;
}

/** Removes the waiting jobs with these keys, one `hm_remove_job` each, in one statement. */
export async function removeJobs(em: EntityManager, jobKeys: string[]): Promise<void> {
  await jobSql(em)`select hm_remove_job(k) from unnest(${`{${jobKeys.map((k) => `"${k}"`).join(',')}}`}::text[]) as k`;
}

export interface DueJob {
  id: string;
  task_identifier: string;
  payload: unknown;
  run_at: Date;
}

/**
 * The earliest unlocked job of these tasks for a marketplace due by `until` (crosses tenants: the queue is shared).
 *
 * It reads graphile-worker's private tables (as do the worker's lease check in packages/jobs and a
 * few tests), read-only. graphile-worker 0.18 has no
 * public way to read a waiting job's payload: the public `graphile_worker.jobs` view leaves the
 * payload out, WorkerUtils has no query for jobs, and the SQL functions that return a payload
 * (`complete_jobs`, `permanently_fail_jobs`, `reschedule_jobs`) change the job first. The
 * marketplace a timer belongs to is only in its payload (`marketplace_id`, required of timers by
 * `defineTask`), so finding "this marketplace's due timers" needs the private `_private_jobs`
 * table. It is read, never written; graphile-worker is pinned, so its schema cannot move under us.
 */
export async function nextDueJob(em: EntityManager, tasks: string[], marketplaceId: string, until: Date): Promise<DueJob | undefined> {
  const [job] = await crossTenantSql(em).query<DueJob>(
    `select j.id, t.identifier as task_identifier, j.payload, j.run_at
       from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier in (${tasks.map(() => '?').join(', ')}) and j.payload->>'marketplace_id' = ? and j.run_at <= ? and j.locked_at is null
      order by j.run_at, j.id limit 1`,
    [...tasks, marketplaceId, until],
  );
  return job;
}

/** Claims a job by completing it (so no worker runs it): the job as it was then, or undefined when a worker took it first. */
export async function claimJob(em: EntityManager, id: string): Promise<{ payload: unknown; run_at: Date } | undefined> {
  const [claimed] = await crossTenantSql(em).query<{ payload: unknown; run_at: Date }>(`select payload, run_at from graphile_worker.complete_jobs(array[?]::bigint[])`, [id]);
  return claimed;
}
