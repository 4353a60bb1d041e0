import { databaseTestConfig } from '@hm/db/testing/vitest-config';

// Browser tests: the API, the worker and `next dev` start once per file; pages compile on first visit.
const config = databaseTestConfig(['test/**/*.test.ts']);
config.test = { ...config.test, testTimeout: 120_000, hookTimeout: 240_000 };
export default config;
