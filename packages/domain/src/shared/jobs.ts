import type { EntityManager } from '@hm/db/orm';
import { insertJob } from './jobs.queries.js';

export interface JobOptions {
  /** `<task>:<entity id>`: a newer job with the same key replaces the waiting one */
  jobKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

/**
 * Adds a graphile-worker job on the entity manager's connection, so inside `em.transactional` it
 * commits or rolls back with the change that causes it (an outbox without a relay).
 */
export async function addJob(em: EntityManager, task: string, payload: Record<string, unknown>, opts: JobOptions = {}): Promise<void> {
  await insertJob(em, task, JSON.stringify(payload), opts);
}
