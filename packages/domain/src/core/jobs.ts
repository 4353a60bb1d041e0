import { z } from 'zod';
import type { EntityManager } from '@hm/db/orm';
import { insertJob, removeJob as deleteJob, removeJobs as deleteJobs } from './jobs.queries.js';
import type { TaskContext, TaskDefinition } from './tasks.js';

declare const jobKeyBrand: unique symbol;
/** A graphile-worker job key, made only by `jobKey` so every key has the same shape. */
export type JobKey = string & { readonly [jobKeyBrand]: true };

/** `<task>:<entity id>`: a task's one waiting job for an entity (a newer job with the key replaces it). */
export function jobKey(task: { readonly name: string }, entityId: string): JobKey {
  return `${task.name}:${entityId}` as JobKey;
}

export interface JobOptions {
  jobKey?: JobKey;
  runAt?: Date;
  /** overrides the task's `maxAttempts` */
  maxAttempts?: number;
}

/**
 * Adds a graphile-worker job on the entity manager's connection, so inside `em.transactional` it
 * commits or rolls back with the change that causes it (an outbox without a relay). The payload is
 * typed by the task's schema and checked here, so a job that could never run is never stored.
 */
export async function addJob<S extends z.ZodType>(em: EntityManager, task: TaskDefinition<S, TaskContext>, payload: NoInfer<z.input<S>>, opts: JobOptions = {}): Promise<void> {
  const checked = task.payload.safeParse(payload);
  if (!checked.success) throw new Error(`addJob ${task.name}: ${z.prettifyError(checked.error)}`);
  await insertJob(em, task.name, JSON.stringify(payload), { ...opts, maxAttempts: opts.maxAttempts ?? task.maxAttempts, ...(task.priority !== undefined && { priority: task.priority }) });
}

/** Removes the waiting job with this key (a running one is left to finish and re-check its entity), on the entity manager's connection. */
export async function removeJob(em: EntityManager, key: JobKey): Promise<void> {
  await deleteJob(em, key);
}

/** Removes the waiting jobs with these keys in one statement (a run that moves many entities at once). */
export async function removeJobs(em: EntityManager, keys: JobKey[]): Promise<void> {
  if (keys.length) await deleteJobs(em, keys);
}
