import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns } from './common.js';

export const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    ...tenantColumns(),
    kind: p.enum(['secret', 'publishable'] as const),
    mode: p.enum(['test', 'live'] as const),
    /** SHA-256 of the whole key; the key itself is shown once and never stored. */
    tokenHash: p.string(),
    /** Last four characters, so operators can tell keys apart. */
    last4: p.string(),
    revokedAt: p.datetime().nullable(),
  },
});
export type ApiKey = InferEntity<typeof ApiKeySchema>;
