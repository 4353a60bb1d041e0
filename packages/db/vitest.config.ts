import { databaseTestConfig } from './src/testing/vitest-config.js';

export default databaseTestConfig(['src/**/*.test.ts']);
