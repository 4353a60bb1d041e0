import { ApiKeySchema, MarketplaceSchema } from '@hm/db/entities';
import { crossTenantEm, type MikroORM } from '@hm/db/orm';
import type { ApiMode, AuthenticatedKey } from '../../core/context.js';
import { DomainError } from '../../core/errors.js';
import { hashApiKey, parseApiKey } from '../api-key-token.js';

/**
 * Resolves `Authorization: Bearer <key>` to its marketplace. Never falls back to anonymous access:
 * a missing, malformed, unknown, revoked or other-mode key is a DomainError (401).
 */
export async function authenticateApiKey(orm: MikroORM, header: string | undefined, mode: ApiMode): Promise<AuthenticatedKey | DomainError> {
  if (header === undefined || header.trim() === '') {
    return new DomainError('api_key_required', 'Send your API key as "Authorization: Bearer <key>".');
  }
  const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
  if (!match) return new DomainError('invalid_api_key', 'The Authorization header must be "Bearer <key>".');
  const token = match[1]!;
  const parsed = parseApiKey(token);
  if (!parsed) return new DomainError('invalid_api_key', 'This is not a valid API key.');
  if (parsed.mode !== mode) {
    return new DomainError('invalid_api_key', `This is a ${parsed.mode} key; this is the ${mode} environment, which accepts ${mode} keys only.`);
  }
  // The key is what tells the marketplace, so finding it crosses tenants.
  const em = crossTenantEm(orm);
  const key = await em.findOne(ApiKeySchema, { tokenHash: hashApiKey(token) }, { filters: false });
  if (!key || key.kind !== parsed.kind || key.mode !== mode) return new DomainError('invalid_api_key', 'This API key does not exist.');
  if (key.revokedAt) return new DomainError('invalid_api_key', 'This API key has been revoked.');
  const marketplace = await em.findOneOrFail(MarketplaceSchema, { id: key.marketplaceId });
  return { apiKeyId: key.id, kind: key.kind, marketplace };
}
