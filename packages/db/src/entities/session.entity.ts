import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns } from './common.js';

export const SessionSchema = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    ...tenantColumns(),
    userId: p.uuid(),
    /** SHA-256 of the token; the token itself is returned once, at sign-in */
    tokenHash: p.string(),
    lastUsedAt: p.datetime(),
    expiresAt: p.datetime(),
    endedAt: p.datetime().nullable(),
  },
});
export type Session = InferEntity<typeof SessionSchema>;
