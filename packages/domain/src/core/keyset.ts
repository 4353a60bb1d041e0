import { createHash } from 'node:crypto';
import { ValidationError, type FieldError } from './errors.js';

/**
 * Keyset paging, one way for every cursor-paged list: a page is the first `limit` rows of the
 * `limit + 1` asked for, and `next_cursor` is the last row's sort key. A cursor is opaque
 * base64url JSON `{q, k}`: `q` a fixed-size digest of the query's fingerprint (a cursor of another
 * query or sort is refused instead of silently paging something else), `k` the key. Every key type
 * is of bounded size (no text: a list ordered by a name pages on the row's id and reads the name
 * back), so a cursor stays short whatever the query and the data — well within `cursor`'s 500
 * characters. Cursors come back from clients, so every key value is checked against its column type
 * before it reaches SQL: a forged cursor is a 422 at `cursor`, never a database error.
 */
export type KeyType = 'uuid' | 'timestamptz' | 'int' | 'bigint';

type KeyValue<T extends KeyType> = T extends 'int' | 'bigint' ? number : string;
export type Key<T extends readonly KeyType[]> = { -readonly [I in keyof T]: KeyValue<T[I]> };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const INT4 = 2 ** 31;

/** Why a cursor of another query (or list, or marketplace) is refused. */
export const NOT_THIS_QUERY = 'Not a cursor of this query; pass back next_cursor from the previous page of the same query.';

const VALID: Record<KeyType, (v: unknown) => boolean> = {
  uuid: (v) => typeof v === 'string' && UUID.test(v),
  // exactly what toISOString() writes, and a real instant (no 2026-02-30)
  timestamptz: (v) => typeof v === 'string' && ISO_MS.test(v) && !Number.isNaN(Date.parse(v)) && new Date(v).toISOString() === v,
  int: (v) => Number.isSafeInteger(v) && (v as number) >= -INT4 && (v as number) < INT4,
  bigint: (v) => Number.isSafeInteger(v),
};

/** A row's key value as the cursor carries it (pg answers bigint as strings, timestamps as Dates). */
function encodeValue(type: KeyType, v: unknown): string | number {
  if (type === 'timestamptz') return (v instanceof Date ? v : new Date(v as string)).toISOString();
  if (type === 'int' || type === 'bigint') return Number(v);
  return String(v);
}

export interface Keyset<T extends readonly KeyType[]> {
  /**
   * The key after which the page starts (undefined without a cursor). A cursor that is not a
   * valid one of this query is a 422 at `cursor`: thrown, or added to `errors` when given.
   */
  after(cursor: string | undefined, errors?: FieldError[]): Key<T> | undefined;
  /** The first `limit` rows, and the next page's cursor when there are more (`rows` holds up to limit + 1). */
  page<R>(rows: R[], limit: number, keyOf: (row: R) => unknown[]): { items: R[]; nextCursor?: string };
}

/** The query as a cursor carries it: 128 bits of its fingerprint's SHA-256, 22 characters however long the query. */
function digest(fingerprint: string): string {
  return createHash('sha256').update(fingerprint).digest('base64url').slice(0, 22);
}

/** `fingerprint`: everything that decides the list's rows and order (marketplace, user, filters, sort), in any form. */
export function keyset<const T extends readonly KeyType[]>(fingerprint: string, types: T): Keyset<T> {
  const q = digest(fingerprint);
  return {
    after(cursor, errors) {
      if (cursor === undefined) return undefined;
      const problem = check(cursor, q, types);
      if (!problem) return (decode(cursor) as { k: Key<T> }).k;
      const error = { location: 'cursor', message: problem, value: cursor };
      if (!errors) throw new ValidationError([error]);
      errors.push(error);
      return undefined;
    },
    page(rows, limit, keyOf) {
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      if (rows.length <= limit || last === undefined) return { items };
      const k = keyOf(last).map((v, i) => encodeValue(types[i]!, v));
      return { items, nextCursor: Buffer.from(JSON.stringify({ q, k })).toString('base64url') };
    },
  };
}

function decode(cursor: string): unknown {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Why the cursor cannot be used, or undefined when it can. */
function check(cursor: string, q: string, types: readonly KeyType[]): string | undefined {
  const parsed = decode(cursor) as { q?: unknown; k?: unknown } | undefined;
  if (!parsed || typeof parsed !== 'object' || parsed.q !== q) {
    return NOT_THIS_QUERY;
  }
  const k = parsed.k;
  if (!Array.isArray(k) || k.length !== types.length || !types.every((t, i) => VALID[t](k[i]))) return 'Malformed cursor.';
  return undefined;
}
