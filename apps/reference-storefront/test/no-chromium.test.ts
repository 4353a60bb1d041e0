import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

/**
 * A machine without Chromium (issue 29 item 10): a browser test file run as `npm test` runs it fails
 * at once, before the API, the worker or `next dev` start, with the one line saying what to install.
 * The file is run by its own vitest, as `npm test` would, with CHROMIUM_PATH naming nothing.
 */
const STOREFRONT_DIR = fileURLToPath(new URL('..', import.meta.url));
const VITEST = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const LINE = 'No Chromium at /nowhere/chromium: the browser tests need it — install it (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome binary.';

test('a browser test file without Chromium fails at once with one line saying what to install', async () => {
  // this run's own vitest settings are not the inner run's (spawn leaves out undefined values)
  const outer = Object.fromEntries(Object.keys(process.env).filter((k) => k.startsWith('VITEST')).map((k) => [k, undefined]));
  const started = Date.now();
  const child = spawn(process.execPath, [VITEST, 'run', '--color=false', 'test/payouts.browser.test.ts'], {
    cwd: STOREFRONT_DIR,
    env: { ...process.env, ...outer, CHROMIUM_PATH: '/nowhere/chromium', NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const seconds = (Date.now() - started) / 1000;

  expect(code, output).toBe(1);
  expect(output.split('\n').filter((l) => /^\s*Error: No Chromium/.test(l))).toEqual([`Error: ${LINE}`]);
  // its test is skipped, never started: no storefront server was waited for
  expect(output).toMatch(/Tests\s+1 skipped \(1\)/);
  expect(output).not.toMatch(/did not answer within|next dev/);
  // at once: the inner run's own start (vitest, an embedded PostgreSQL) and nothing more — about 5 s on
  // a quiet machine, 17 s with seven test runs sharing two cores; a stack start alone adds 20–40 s
  expect(seconds, output).toBeLessThan(60);
});
