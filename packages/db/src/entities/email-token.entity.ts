import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns } from './common.js';

export const EMAIL_TOKEN_PURPOSES = ['sign_in', 'verify_email', 'reset_password', 'welcome'] as const;
export type EmailTokenPurpose = (typeof EMAIL_TOKEN_PURPOSES)[number];

/** A token sent in an emailed link (sign-in, confirmation, reset, welcome); stored hashed. */
export const EmailTokenSchema = defineEntity({
  name: 'EmailToken',
  tableName: 'email_tokens',
  properties: {
    ...tenantColumns(),
    userId: p.uuid(),
    purpose: p.enum(EMAIL_TOKEN_PURPOSES),
    tokenHash: p.string(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
export type EmailToken = InferEntity<typeof EmailTokenSchema>;
