import { expect, test } from 'vitest';
import { READ_CACHE_MARKETPLACES, readCache } from './read-cache.js';

test('one object per marketplace and variant until a change to it is heard; nothing while not listening', () => {
  let listening = true;
  const cache = readCache(() => listening);
  const seen = cache.heard();
  const a = cache.ownerFor('m1', 'publishable 2026-11-28', seen)!;
  expect(cache.ownerFor('m1', 'publishable 2026-11-28', seen)).toBe(a);
  expect(cache.ownerFor('m1', 'secret 2026-11-28', seen)).not.toBe(a);
  const other = cache.ownerFor('m2', 'publishable 2026-11-28', seen)!;
  cache.changed('m1');
  const after = cache.heard();
  expect(cache.ownerFor('m1', 'publishable 2026-11-28', after)).not.toBe(a);
  expect(cache.ownerFor('m2', 'publishable 2026-11-28', after)).toBe(other);
  cache.changed(undefined);
  expect(cache.ownerFor('m2', 'publishable 2026-11-28', cache.heard())).not.toBe(other);
  listening = false;
  expect(cache.ownerFor('m2', 'publishable 2026-11-28', cache.heard())).toBeUndefined();
});

test('a request that arrived before a change to its marketplace was heard keeps nothing (its key, and so its settings, may predate it)', () => {
  const cache = readCache(() => true);
  const arrived = cache.heard();
  cache.changed('m1');
  expect(cache.ownerFor('m1', 'v', arrived)).toBeUndefined();
  expect(cache.ownerFor('m2', 'v', arrived)).toBeDefined(); // another marketplace's change is not its business
  expect(cache.ownerFor('m1', 'v', cache.heard())).toBeDefined();
  cache.changed(undefined);
  expect(cache.ownerFor('m2', 'v', arrived)).toBeUndefined();
});

test('past READ_CACHE_MARKETPLACES the oldest goes, and a request older than its last change keeps nothing', () => {
  const cache = readCache(() => true);
  cache.changed('first');
  const arrived = cache.heard();
  for (let i = 0; i < READ_CACHE_MARKETPLACES; i++) cache.ownerFor(`m${i}`, 'v', arrived);
  // 'first' was evicted: its change is no longer known by itself, so older requests keep nothing anywhere
  expect(cache.ownerFor('first', 'v', arrived - 1)).toBeUndefined();
  expect(cache.ownerFor('first', 'v', arrived)).toBeDefined();
});
