import type pg from 'pg';
import type { Marketplace } from '@hm/db/entities';
import { hashApiKey, parseApiKey } from '../packages/domain/src/api-keys/api-key-token.js';
import { API_KEY_CACHE_MAX_MS } from '../apps/api/src/http/api-key-cache.js';

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
/** A row shaped like its entity: camelCase properties. */
export const asEntity = <T>(row: Record<string, unknown>): T => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[camel(k)] = v;
  return out as T;
};

/**
 * A bare route's API-key check, doing the API's database work: the key by its token hash, then its
 * marketplace, and an accepted key's marketplace reused for up to a second (the API's key cache,
 * API_KEY_CACHE_MS). Resolves undefined for a missing, malformed, revoked or other-mode key.
 */
export function bareKeyAuth(pool: pg.Pool, mode: 'test' | 'live') {
  const accepted = new Map<string, { asked: number; marketplace: Promise<Marketplace | undefined> }>();
  const lookUp = async (header: string | undefined): Promise<Marketplace | undefined> => {
    const token = /^Bearer ([^\s]+)$/i.exec(header?.trim() ?? '')?.[1];
    const parsed = token ? parseApiKey(token) : undefined;
    if (!token || !parsed || parsed.mode !== mode) return undefined;
    const key = (await pool.query('select * from api_keys where token_hash = $1 limit 1', [hashApiKey(token)])).rows[0];
    if (!key || key.kind !== parsed.kind || key.mode !== mode || key.revoked_at) return undefined;
    const m = (await pool.query('select * from marketplaces where id = $1 limit 1', [key.marketplace_id])).rows[0];
    return m ? asEntity<Marketplace>(m) : undefined;
  };
  return (header: string | undefined): Promise<Marketplace | undefined> => {
    const now = performance.now();
    const hit = header === undefined ? undefined : accepted.get(header);
    if (hit && now - hit.asked < API_KEY_CACHE_MAX_MS) return hit.marketplace;
    const marketplace = lookUp(header);
    if (header !== undefined) accepted.set(header, { asked: now, marketplace });
    return marketplace;
  };
}
