import { ApiKeySchema, type ApiKey } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import type { ApiMode, KeyKind } from '../../core/context.js';
import { DomainError, NotFoundError } from '../../core/errors.js';
import { generateApiKey, hashApiKey, parseApiKey } from '../api-key-token.js';

export function toApiKeyBody(k: ApiKey) {
  return {
    id: k.id,
    kind: k.kind,
    mode: k.mode,
    hint: `${k.kind === 'secret' ? 'sk' : 'pk'}_${k.mode}_…${k.last4}`,
    created_at: k.createdAt.toISOString(),
    revoked_at: k.revokedAt?.toISOString() ?? null,
  };
}

/** Creates a key; the plain key is returned once, only its hash is kept. */
export function createApiKey(em: EntityManager, marketplaceId: string, kind: KeyKind, mode: ApiMode): { key: ApiKey; token: string } {
  const token = generateApiKey(kind, mode);
  const key = em.create(ApiKeySchema, { marketplaceId, kind, mode, tokenHash: hashApiKey(token), last4: token.slice(-4), revokedAt: null });
  return { key, token };
}

export async function listApiKeys(em: EntityManager): Promise<ApiKey[]> {
  return em.find(ApiKeySchema, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** Revokes by key id or by the key itself; revoking twice is refused so typos do not pass silently. */
export async function revokeApiKey(em: EntityManager, keyOrId: string, now: Date): Promise<ApiKey> {
  const where = parseApiKey(keyOrId) ? { tokenHash: hashApiKey(keyOrId) } : /^[0-9a-f-]{36}$/i.test(keyOrId) ? { id: keyOrId } : undefined;
  if (!where) throw new DomainError('validation_failed', 'Give an API key or a key id.', { errors: [{ location: 'key', message: 'Not a key or key id.', value: keyOrId }] });
  const key = await em.findOne(ApiKeySchema, where, { filters: false });
  if (!key) throw new NotFoundError('API key');
  if (key.revokedAt) throw new DomainError('conflict', `API key ${key.id} was already revoked at ${key.revokedAt.toISOString()}.`);
  key.revokedAt = now;
  await em.flush();
  return key;
}
