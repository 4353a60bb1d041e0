import { databaseTestConfig } from '@hm/db/testing/vitest-config';

// Browser tests: the API, the worker and `next dev` start once per file; pages compile on first visit.
// Unit tests sit beside what they test in lib/.
const config = databaseTestConfig(['test/**/*.test.ts', 'lib/**/*.test.ts']);
config.test = { ...config.test, testTimeout: 120_000, hookTimeout: 240_000 };
export default config;
