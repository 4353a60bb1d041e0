import type { TaskList } from 'graphile-worker';
import { purgeIdempotencyKeys } from './tasks/purge-idempotency-keys.js';

/** Every task the worker runs, by name (one file per task under tasks/). */
export const taskList: TaskList = {
  'purge-idempotency-keys': purgeIdempotencyKeys,
};

/** Recurring jobs (graphile-worker crontab syntax). */
export const crontab = `
0 * * * * purge-idempotency-keys
`;
