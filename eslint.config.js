import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { boundaryConfigs } from './packages/domain/boundaries.js';

const UNSTABLE_TRPC = { name: '@trpc/server/unstable-core-do-not-import', message: "Use tRPC's public exports (callTRPCProcedure, getTRPCErrorShape, …)." };

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/.next/**', '**/dist/**', '.data/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    // tRPC's internals may change in any release; tRPC's public exports do what the /v1 dispatcher needs (packages/rest/src/trpc-internals.ts).
    rules: { 'no-restricted-imports': ['error', { paths: [UNSTABLE_TRPC] }] },
  },
  {
    // Tenancy: raw SQL lives in *.queries.ts behind @hm/db/sql (tenantSql / crossTenantSql / jobSql),
    // which scope it by marketplace; elsewhere the entity manager's own queries (tenant filter) only.
    files: ['packages/domain/src/**/*.ts', 'packages/contract/src/**/*.ts', 'packages/jobs/src/**/*.ts', 'apps/api/src/**/*.ts'],
    ignores: ['**/*.queries.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name=/^(execute|getConnection|getKysely|createQueryBuilder|withPgClient)$/]",
          message: 'Raw SQL goes in a *.queries.ts file through tenantSql/crossTenantSql/jobSql (@hm/db/sql).',
        },
      ],
      'no-restricted-imports': ['error', { paths: [{ name: '@hm/db/sql', message: 'Raw SQL goes in a *.queries.ts file.' }, UNSTABLE_TRPC] }],
    },
  },
  ...boundaryConfigs('packages/domain/src'),
);
