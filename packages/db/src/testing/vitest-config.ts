import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Shared vitest setup for packages that test against PostgreSQL: one server per run, a database per file. */
export function databaseTestConfig(include: string[]) {
  return defineConfig({
    test: {
      globalSetup: [fileURLToPath(new URL('./global-setup.ts', import.meta.url))],
      include,
      testTimeout: 30_000,
      hookTimeout: 60_000,
      pool: 'forks',
    },
  });
}
