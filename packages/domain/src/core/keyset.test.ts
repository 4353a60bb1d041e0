import { expect, test } from 'vitest';
import { ValidationError, type FieldError } from './errors.js';
import { keyset } from './keyset.js';

const ID = '01a208c5-b59b-7b14-9952-262360b1f49a';

test('a page is the first `limit` rows; its cursor carries the last key as pg answers it, normalised', () => {
  const pages = keyset('q1', ['timestamptz', 'bigint', 'uuid']);
  const rows = [1, 2, 3].map((n) => ({ at: new Date(Date.UTC(2026, 10, 22, 10, 0, n)), price: `${n}00`, id: ID }));
  const { items, nextCursor } = pages.page(rows, 2, (r) => [r.at, r.price, r.id]);
  expect(items).toEqual(rows.slice(0, 2));
  expect(pages.after(nextCursor)).toEqual(['2026-11-22T10:00:02.000Z', 200, ID]);
  expect(pages.page(rows, 3, (r) => [r.at, r.price, r.id])).toEqual({ items: rows });
  expect(pages.after(undefined)).toBeUndefined();
});

test('a cursor of another query, or with a key that does not fit its column, is a 422 at `cursor`', () => {
  const a = keyset('q1', ['int', 'uuid']);
  const { nextCursor } = a.page([{ n: 1 }, { n: 2 }], 1, (r) => [r.n, ID]);
  expect(() => keyset('q2', ['int', 'uuid']).after(nextCursor)).toThrow(ValidationError);
  const { q } = JSON.parse(Buffer.from(nextCursor!, 'base64url').toString('utf8')) as { q: string };
  const forged = Buffer.from(JSON.stringify({ q, k: [2 ** 31, ID] })).toString('base64url');
  const errors: FieldError[] = [];
  expect(a.after(forged, errors)).toBeUndefined();
  expect(errors).toEqual([{ location: 'cursor', message: 'Malformed cursor.', value: forged }]);
});

test('a cursor is short whatever its query: the query is carried as a fixed-size digest', () => {
  // the widest key of each type: an int of 11 characters, a timestamp, a bigint of 17, a uuid
  const key = (q: string) => keyset(q, ['int', 'timestamptz', 'bigint', 'uuid']);
  const rows = [{ n: -(2 ** 31) }, { n: 0 }];
  const widest = (q: string) => key(q).page(rows, 1, (r) => [r.n, '9999-12-31T23:59:59.999Z', -Number.MAX_SAFE_INTEGER, ID]).nextCursor!;
  const huge = JSON.stringify({ q: '漢'.repeat(200), t: Array.from({ length: 50 }, () => ID), a: Array.from({ length: 50 }, () => `${'k'.repeat(40)}:${'"\\'.repeat(50)}`) });
  const cursor = widest(huge);
  expect(cursor.length).toBeLessThan(180);
  expect(widest('')).toHaveLength(cursor.length);
  expect(key(huge).after(cursor)).toEqual([-(2 ** 31), '9999-12-31T23:59:59.999Z', -Number.MAX_SAFE_INTEGER, ID]);
  // a query differing in its last character is another query
  expect(() => key(`${huge.slice(0, -1)} `).after(cursor)).toThrow(ValidationError);
});
