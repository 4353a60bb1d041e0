import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { requireChromium } from './chromium.js';

test('a missing Chromium is one line naming the path, what to install and CHROMIUM_PATH', () => {
  let message = '';
  try {
    requireChromium('/nowhere/chromium');
  } catch (err) {
    message = (err as Error).message;
  }
  expect(message).toBe('No Chromium at /nowhere/chromium: the browser tests need it — install it (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome binary.');
  expect(message).not.toContain('\n');
});

test('a file that is not executable is refused; an executable one is returned', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hm-chromium-'));
  const file = path.join(dir, 'chromium');
  writeFileSync(file, '#!/bin/sh\n', { mode: 0o644 });
  expect(() => requireChromium(file)).toThrow(/^No Chromium at /);
  const exe = path.join(dir, 'chromium-exe');
  writeFileSync(exe, '#!/bin/sh\n', { mode: 0o755 });
  expect(requireChromium(exe)).toBe(exe);
});
