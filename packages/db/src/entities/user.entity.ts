import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, updatedAt } from './common.js';

export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    ...tenantColumns(),
    email: p.string(),
    /** lower-cased address: unique per marketplace, so addresses compare case-insensitively */
    emailNormalized: p.string(),
    emailVerifiedAt: p.datetime().nullable(),
    /** argon2id PHC string; null for accounts that sign in with emailed links only */
    passwordHash: p.string().nullable(),
    firstName: p.string().default(''),
    lastName: p.string().default(''),
    displayName: p.string().default(''),
    bio: p.text().default(''),
    phone: p.string().default(''),
    /** empty: the marketplace's default language */
    locale: p.string().default(''),
    blockedAt: p.datetime().nullable(),
    updatedAt: updatedAt(),
  },
});
export type User = InferEntity<typeof UserSchema>;
