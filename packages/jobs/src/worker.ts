import { run, type Runner, Logger } from 'graphile-worker';
import { crontab, taskList } from './task-list.js';

export { taskList, crontab };

/**
 * Runs graphile-worker inside Postgres: in the API process by default, or alone (`npm run worker`).
 * Signals are left to the caller, which shuts down the API, the worker and the database in order.
 */
export async function startWorker(opts: { connectionString: string; concurrency?: number; log?: (level: string, message: string) => void }): Promise<Runner> {
  const logger = new Logger(() => (level, message) => opts.log?.(level, message));
  return run({
    connectionString: opts.connectionString,
    concurrency: opts.concurrency ?? 4,
    taskList,
    crontab,
    noHandleSignals: true,
    pollInterval: 1000,
    logger,
  });
}
