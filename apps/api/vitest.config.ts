import { databaseTestConfig } from '@hm/db/testing/vitest-config';

export default databaseTestConfig(['test/**/*.test.ts', 'src/**/*.test.ts']);
