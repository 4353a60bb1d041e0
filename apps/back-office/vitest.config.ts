import { databaseTestConfig } from '@hm/db/testing/vitest-config';

// Browser tests: the API, the worker, the storefront and the back office (`next dev`) start once per file.
const config = databaseTestConfig(['test/**/*.test.ts', 'lib/**/*.test.ts']);
config.test = { ...config.test, testTimeout: 180_000, hookTimeout: 300_000 };
export default config;
