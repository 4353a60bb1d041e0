import pg from 'pg';
import { run, Logger } from 'graphile-worker';
import { createTaskList, crontab, type TaskDeps } from './task-list.js';

export { createTaskList, crontab, type TaskDeps };

export interface Worker {
  stop(): Promise<void>;
}

/**
 * Runs graphile-worker inside Postgres: in the API process by default, or alone (`npm run worker`).
 * Signals are left to the caller, which shuts down the API, the worker and the database in order.
 * The pool is ours so that connections the database drops at shutdown are logged, not fatal.
 */
export async function startWorker(opts: { connectionString: string; deps: TaskDeps; concurrency?: number; log?: (level: string, message: string) => void }): Promise<Worker> {
  const pool = new pg.Pool({ connectionString: opts.connectionString, max: (opts.concurrency ?? 4) + 2 });
  pool.on('error', (err) => opts.log?.('warning', `worker database connection: ${err.message}`));
  pool.on('connect', (client) => client.on('error', (err) => opts.log?.('warning', `worker database client: ${err.message}`)));
  const runner = await run({
    pgPool: pool,
    concurrency: opts.concurrency ?? 4,
    taskList: createTaskList(opts.deps),
    crontab,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: new Logger(() => (level, message) => opts.log?.(level, message)),
  });
  return {
    async stop() {
      await runner.stop();
      await pool.end();
    },
  };
}
