import type { Task, TaskList } from 'graphile-worker';
import type { MikroORM } from '@hm/db/orm';
import type { ApiMode } from '@hm/domain/core';
import type { Ports } from '@hm/domain/ports';
import { TASKS, importRatesTask, purgeEventsTask, purgeIdempotencyKeysTask, purgeRateLimitsTask, repriceAllTask, runTask, type TaskDefinition } from '@hm/domain/tasks';

/** What tasks need from the composition root: the ORM, the ports and two settings. */
export interface TaskDeps {
  orm: MikroORM;
  mode: ApiMode;
  /** sender address of emails (MAIL_FROM) */
  mailFrom: string;
  ports: Ports;
}

/**
 * graphile-worker's task list, one entry per task definition (declared in @hm/domain beside the
 * command each runs). The payload is parsed with the definition's schema first: one that does not
 * parse can never succeed, and graphile-worker has no way for a running task to fail its job for
 * good (`permanently_fail_jobs` skips locked jobs), so such a job is logged as an error and
 * completed instead of retried for days.
 */
export function createTaskList(deps: TaskDeps): TaskList {
  return Object.fromEntries(TASKS.map((task) => [task.name, toGraphileTask(task, deps)]));
}

function toGraphileTask(task: TaskDefinition, deps: TaskDeps): Task {
  return async (payload, helpers) => {
    const { job } = helpers;
    const ctx = { ...deps.ports, orm: deps.orm, mode: deps.mode, mailFrom: deps.mailFrom, attempt: { number: job.attempts, max: job.max_attempts } };
    const run = await runTask(task, payload, ctx);
    if (run.ok) helpers.logger.info(`${task.name} ${JSON.stringify(run.payload)}: ${run.outcome}`);
    else helpers.logger.error(`${task.name} job ${job.id} dropped without retry: ${run.problem}`);
  };
}

/** Recurring jobs (graphile-worker crontab syntax: minute hour day month weekday, UTC). */
const RECURRING: [schedule: string, task: TaskDefinition][] = [
  ['0 * * * *', purgeIdempotencyKeysTask],
  ['30 * * * *', purgeRateLimitsTask],
  ['0 0 * * *', importRatesTask],
  ['5 0 * * *', repriceAllTask],
  ['15 3 * * *', purgeEventsTask],
];

export const crontab = RECURRING.map(([schedule, task]) => `${schedule} ${task.name}`).join('\n');
