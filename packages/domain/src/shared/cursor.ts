import { ValidationError } from '../errors.js';

/**
 * Opaque keyset cursors: base64url JSON of the last row's sort key plus a fingerprint of the query,
 * so a cursor from another query is refused instead of silently paging something else.
 */
export function encodeCursor(query: string, key: unknown[]): string {
  return Buffer.from(JSON.stringify({ q: query, k: key })).toString('base64url');
}

export function decodeCursor(cursor: string, query: string, location = 'cursor'): unknown[] {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { q?: unknown; k?: unknown };
    if (parsed.q === query && Array.isArray(parsed.k)) return parsed.k;
  } catch {
    // fall through to the one error below
  }
  throw new ValidationError([{ location, message: 'Not a cursor of this query; pass back next_cursor from the previous page of the same query.', value: cursor }]);
}
