import { describe, expect, test } from 'vitest';
import { EVERY_LISTING, LISTINGS_KNOWN, READ_CACHE_MARKETPLACES, readCache, type Shows } from './read-cache.js';

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

describe('a change to one listing alone (its favourite count)', () => {
  const setup = () => {
    const forgotten: [object, string][] = [];
    const cache = readCache(
      () => true,
      (owner, key) => void forgotten.push([owner, key]),
    );
    return { cache, forgotten };
  };
  const page = (...listings: string[]): Shows => ({ listings, byFavourites: false });
  const popular = (...listings: string[]): Shows => ({ listings, byFavourites: true });

  test('keeps the object; drops the answers under that listing and under EVERY_LISTING, in every variant', () => {
    const { cache, forgotten } = setup();
    const seen = cache.heard();
    const pub = cache.ownerFor('m1', 'publishable', seen)!;
    const sec = cache.ownerFor('m1', 'secret', seen)!;
    cache.ownerFor('m2', 'publishable', seen);
    expect(cache.keysFor('m1', seen, page('x', 'y'))).toEqual(['x', 'y']);
    expect(cache.keysFor('m1', seen, popular('x', 'y'))).toEqual([EVERY_LISTING]);
    expect(cache.keysFor('m1', seen, page())).toEqual([]);
    cache.changed('m1', 'x');
    expect(cache.ownerFor('m1', 'publishable', cache.heard())).toBe(pub);
    expect(forgotten).toEqual([
      [pub, 'x'],
      [pub, EVERY_LISTING],
      [sec, 'x'],
      [sec, EVERY_LISTING],
    ]);
  });

  test('an answer computed by a request that arrived before the change was heard is kept only when it shows no changed listing', () => {
    const { cache } = setup();
    const arrived = cache.heard();
    cache.ownerFor('m1', 'v', arrived);
    cache.changed('m1', 'x');
    expect(cache.keysFor('m1', arrived, page('a', 'x'))).toBe(false);
    expect(cache.keysFor('m1', arrived, page('a', 'b'))).toEqual(['a', 'b']);
    expect(cache.keysFor('m1', arrived, popular('a', 'b'))).toBe(false); // its order may have changed
    expect(cache.keysFor('m1', arrived, page())).toEqual([]);
    expect(cache.keysFor('m1', cache.heard(), page('a', 'x'))).toEqual(['a', 'x']);
    expect(cache.keysFor('m1', cache.heard(), popular('a'))).toEqual([EVERY_LISTING]);
    // a change to anything else: nothing computed before it is kept
    const later = cache.heard();
    cache.changed('m1');
    expect(cache.keysFor('m1', later, page())).toBe(false);
  });

  test('heard for a marketplace nothing is kept for: a request that arrived before it keeps nothing', () => {
    const { cache, forgotten } = setup();
    const arrived = cache.heard();
    cache.changed('m1', 'x');
    expect(forgotten).toEqual([]);
    expect(cache.ownerFor('m1', 'v', arrived)).toBeUndefined();
    expect(cache.ownerFor('m1', 'v', cache.heard())).toBeDefined();
  });

  test(`past LISTINGS_KNOWN listings the record starts again: older requests keep no answer showing listings`, () => {
    const { cache } = setup();
    cache.ownerFor('m1', 'v', 0);
    const arrived = cache.heard();
    for (let i = 0; i < LISTINGS_KNOWN; i++) cache.changed('m1', `l${i}`);
    const before = cache.heard();
    expect(cache.keysFor('m1', before - 1, page('other'))).toEqual(['other']);
    cache.changed('m1', 'one more');
    expect(cache.keysFor('m1', before, page('other'))).toBe(false);
    expect(cache.keysFor('m1', arrived, page())).toEqual([]);
    expect(cache.keysFor('m1', cache.heard(), page('l0'))).toEqual(['l0']);
  });

  test('an evicted marketplace forgets its listings: requests older than their changes keep nothing', () => {
    const { cache } = setup();
    cache.ownerFor('first', 'v', 0);
    cache.changed('first', 'x');
    const arrived = cache.heard();
    for (let i = 0; i < READ_CACHE_MARKETPLACES; i++) cache.ownerFor(`m${i}`, 'v', arrived);
    expect(cache.ownerFor('first', 'v', arrived - 1)).toBeUndefined();
    expect(cache.ownerFor('first', 'v', arrived)).toBeDefined();
  });
});

describe('exact counts kept per marketplace', () => {
  test('kept until a change to the marketplace is heard (a favourite count is none); not used nor kept by a request older than it', () => {
    let listening = true;
    const cache = readCache(() => listening);
    const counts = cache.countsFor('m1', cache.heard())!;
    expect(counts.get('q=chair')).toBeUndefined();
    counts.set('q=chair', 7);
    expect(cache.countsFor('m1', cache.heard())!.get('q=chair')).toBe(7);
    expect(cache.countsFor('m2', cache.heard())!.get('q=chair')).toBeUndefined();
    cache.changed('m1', 'x');
    expect(counts.get('q=chair')).toBe(7);
    // a change to the marketplace: the counts go, and a request that arrived before it uses and keeps none
    cache.changed('m1');
    expect(counts.get('q=chair')).toBeUndefined();
    counts.set('q=chair', 7);
    const now = cache.countsFor('m1', cache.heard())!;
    expect(now.get('q=chair')).toBeUndefined();
    now.set('q=chair', 6);
    expect(now.get('q=chair')).toBe(6);
    expect(counts.get('q=chair')).toBeUndefined();
    // heard while the request ran: it neither reads nor keeps any more
    cache.changed('m1');
    now.set('q=lamp', 1);
    expect(cache.countsFor('m1', cache.heard())!.get('q=lamp')).toBeUndefined();
    listening = false;
    expect(cache.countsFor('m1', cache.heard())).toBeUndefined();
  });

  test('everything dropped (the listener reconnected): older requests keep no count', () => {
    const cache = readCache(() => true);
    const arrived = cache.heard();
    cache.changed(undefined);
    const counts = cache.countsFor('m1', arrived)!;
    counts.set('q=chair', 7);
    expect(cache.countsFor('m1', cache.heard())!.get('q=chair')).toBeUndefined();
  });
});
