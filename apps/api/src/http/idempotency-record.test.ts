import { expect, test } from 'vitest';
import { canonicalDigest, open, recordKeys, seal } from './idempotency-record.js';

test('the canonical digest ignores key order, not array order or types', () => {
  expect(canonicalDigest({ a: 1, b: [1, 2], c: { x: null, y: 'z' } })).toBe(canonicalDigest({ c: { y: 'z', x: null }, b: [1, 2], a: 1 }));
  expect(canonicalDigest({ b: [1, 2] })).not.toBe(canonicalDigest({ b: [2, 1] }));
  expect(canonicalDigest({ a: 1 })).not.toBe(canonicalDigest({ a: '1' }));
  expect(canonicalDigest([{}, []])).not.toBe(canonicalDigest([[], {}]));
  expect(canonicalDigest({ 'a,b': 1 })).not.toBe(canonicalDigest({ a: 1, b: 1 }));
});

test('the canonical digest takes any depth without recursion', () => {
  let deep: unknown = 'leaf';
  for (let i = 0; i < 200_000; i++) deep = i % 2 ? [deep] : { k: deep };
  expect(canonicalDigest(deep)).toMatch(/^[0-9a-f]{64}$/);
});

test('a sealed body opens only with the same client secrets and record', () => {
  const keys = recordKeys('sk_test_abc', 'user_123', '0190a0a0-0000-7000-8000-000000000001');
  const sealed = seal(keys, 'record-1', Buffer.from('{"session":{"token":"sess_secret"}}'));
  expect(sealed.toString('latin1')).not.toContain('sess_secret');
  expect(open(keys, 'record-1', sealed)?.toString()).toBe('{"session":{"token":"sess_secret"}}');
  expect(open(keys, 'record-2', sealed)).toBeUndefined();
  expect(open(recordKeys('sk_test_abd', 'user_123', '0190a0a0-0000-7000-8000-000000000001'), 'record-1', sealed)).toBeUndefined();
  expect(open(recordKeys('sk_test_abc', '', '0190a0a0-0000-7000-8000-000000000001'), 'record-1', sealed)).toBeUndefined();
  expect(open(keys, 'record-1', Buffer.from('plain text stored by an older version'))).toBeUndefined();
  expect(open(keys, 'record-1', seal(keys, 'record-1', Buffer.alloc(0)))?.length).toBe(0);
});
