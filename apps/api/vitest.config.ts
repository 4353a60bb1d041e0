import { availableParallelism } from 'node:os';
import { databaseTestConfig } from '@hm/db/testing/vitest-config';

const config = databaseTestConfig(['test/**/*.test.ts', 'src/**/*.test.ts']);
// One file per core, at least two (vitest's default is one fewer than the cores, so one on 2 cores):
// an e2e file spends most of its time waiting on Postgres and HTTP, and each has its own database and
// ports. On 2 cores the workspace took 341 s instead of 537.
config.test = { ...config.test, maxWorkers: Math.max(2, availableParallelism()) };
export default config;
