import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { nextInputsHash } from './next-build.js';

const root = mkdtempSync(path.join(tmpdir(), 'hm-sf-inputs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const put = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};

test('the build stamp follows what the build is made of, and nothing else', () => {
  put('package-lock.json', '{"lockfileVersion": 3}');
  put('apps/reference-storefront/app/page.tsx', `import type { AppRouter } from '@hm/contract/router';\nexport default function Page() { return null; }`);
  put('apps/reference-storefront/next.config.ts', 'export default {};');
  put('apps/reference-storefront/next-env.d.ts', 'import "./.next/types/routes.d.ts";');
  put('apps/reference-storefront/test/shop.browser.test.ts', 'test');
  put('apps/reference-storefront/.next/BUILD_ID', 'a');
  put('packages/contract/package.json', '{"dependencies": {"@hm/domain": "*"}}');
  put('packages/contract/src/router.ts', 'export type AppRouter = 1;');
  put('packages/domain/src/orders/index.ts', 'export type Order = 1;');
  put('packages/jobs/src/worker.ts', 'export {};');
  const first = nextInputsHash('reference-storefront', root);
  expect(first).toMatch(/^[0-9a-f]{64}$/);
  expect(nextInputsHash('reference-storefront', root)).toBe(first);

  // Not inputs: what Next rewrites itself, tests, build output, packages the storefront does not import.
  put('apps/reference-storefront/next-env.d.ts', 'import "./.next-test/types/routes.d.ts";');
  put('apps/reference-storefront/test/shop.browser.test.ts', 'test 2');
  put('apps/reference-storefront/.next/BUILD_ID', 'b');
  put('packages/jobs/src/worker.ts', 'export const x = 1;');
  expect(nextInputsHash('reference-storefront', root)).toBe(first);

  // Inputs: its sources, the sources of a package it imports (types included), the locked dependencies.
  const changes: [string, string][] = [
    ['apps/reference-storefront/app/page.tsx', `import type { AppRouter } from '@hm/contract/router';\nexport default function Page() { return 1; }`],
    ['packages/contract/src/router.ts', 'export type AppRouter = 2;'],
    ['packages/domain/src/orders/index.ts', 'export type Order = 2;'],
    ['package-lock.json', '{"lockfileVersion": 3, "packages": {}}'],
    ['apps/reference-storefront/app/new-page.tsx', 'export default function New() { return null; }'],
  ];
  const seen = new Set([first]);
  for (const [file, text] of changes) {
    put(file, text);
    const next = nextInputsHash('reference-storefront', root);
    expect(seen.has(next), file).toBe(false);
    seen.add(next);
  }
});

test('the back office’s build follows its own sources and the storefront files it imports (and what they import), not the rest of the storefront', () => {
  put('package-lock.json', '{"lockfileVersion": 3}');
  put('apps/back-office/app/page.tsx', `import type { BackOfficeRouter } from '@hm/contract/back-office';\nexport default function Page() { return null; }`);
  put('apps/back-office/proxy.ts', `import { contentSecurityPolicy } from '../reference-storefront/lib/security-headers';\nexport {};`);
  put('apps/reference-storefront/lib/security-headers.ts', `import { b } from './headers-data';\nexport const a = 1;`);
  put('apps/reference-storefront/lib/headers-data.ts', 'export const b = 1;');
  put('apps/reference-storefront/app/page.tsx', 'export default function Page() { return 1; }');
  const first = nextInputsHash('back-office', root);
  put('apps/reference-storefront/app/page.tsx', 'export default function Page() { return 2; }');
  expect(nextInputsHash('back-office', root)).toBe(first);
  put('apps/reference-storefront/lib/headers-data.ts', 'export const b = 2;');
  const second = nextInputsHash('back-office', root);
  expect(second).not.toBe(first);
  put('apps/back-office/app/page.tsx', 'export default function Page() { return 3; }');
  expect(nextInputsHash('back-office', root)).not.toBe(second);
});
