import { databaseTestConfig } from '@hm/db/testing/vitest-config';

export default databaseTestConfig(['src/**/*.test.ts']);
