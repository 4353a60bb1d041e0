import { expect, test } from 'vitest';
import { uuidv7 } from './ids.js';

test('uuidv7: version 7, RFC 9562 variant, ordered by creation time', () => {
  const a = uuidv7(1_700_000_000_000);
  const b = uuidv7(1_700_000_000_001);
  expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(a < b).toBe(true);
  expect(a.replaceAll('-', '').slice(0, 12)).toBe((1_700_000_000_000).toString(16).padStart(12, '0'));
  expect(new Set(Array.from({ length: 1000 }, () => uuidv7())).size).toBe(1000);
});
