import { EmailTokenSchema, type EmailToken, type EmailTokenPurpose } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { DomainError } from '../../core/errors.js';
import { hashToken, newSecretToken } from '../../core/secret-token.js';

const MINUTE = 60 * 1000;
/** Spec (Limits → Link validity). */
export const LINK_VALIDITY_MS: Record<EmailTokenPurpose, number> = {
  sign_in: 15 * MINUTE,
  verify_email: 24 * 60 * MINUTE,
  reset_password: 60 * MINUTE,
  welcome: 7 * 24 * 60 * MINUTE,
};

/** Issues a link token; returns the token itself, which only the email will carry. */
export function issueEmailToken(em: EntityManager, user: { id: string; marketplaceId: string }, purpose: EmailTokenPurpose, now: Date): string {
  const token = newSecretToken('');
  em.create(EmailTokenSchema, {
    marketplaceId: user.marketplaceId,
    userId: user.id,
    purpose,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + LINK_VALIDITY_MS[purpose]),
    usedAt: null,
  });
  return token;
}

const WHAT: Record<EmailTokenPurpose, string> = {
  sign_in: 'sign-in link',
  welcome: 'sign-in link',
  verify_email: 'confirmation link',
  reset_password: 'password reset link',
};

function linkProblem(code: 'link_invalid' | 'link_expired' | 'link_used', purpose: EmailTokenPurpose): DomainError {
  const what = WHAT[purpose];
  const detail = {
    link_invalid: `This ${what} is not valid. Ask for a new one.`,
    link_expired: `This ${what} has expired. Ask for a new one.`,
    link_used: `This ${what} has already been used. Ask for a new one.`,
  }[code];
  // The token is a secret: never echoed back.
  return new DomainError(code, detail, { errors: [{ location: 'token', message: detail, value: null }] });
}

/**
 * Finds a link token for one of `purposes`: unknown → 422 link_invalid, expired → 422 link_expired.
 * With `once`, it is marked used atomically, so two concurrent uses cannot both succeed (the loser
 * gets 422 link_used); without, a used token keeps working until it expires.
 */
export async function redeemEmailToken(em: EntityManager, token: string, purposes: EmailTokenPurpose[], now: Date, opts: { once: boolean }): Promise<EmailToken> {
  const row = await em.findOne(EmailTokenSchema, { tokenHash: hashToken(token), purpose: { $in: purposes } });
  const purpose = purposes[0]!;
  if (!row) throw linkProblem('link_invalid', purpose);
  if (opts.once && row.usedAt) throw linkProblem('link_used', row.purpose);
  if (row.expiresAt <= now) throw linkProblem('link_expired', row.purpose);
  if (opts.once) {
    const claimed = await em.nativeUpdate(EmailTokenSchema, { id: row.id, usedAt: null }, { usedAt: now });
    if (claimed !== 1) throw linkProblem('link_used', row.purpose);
    row.usedAt = now;
  } else if (!row.usedAt) {
    await em.nativeUpdate(EmailTokenSchema, { id: row.id }, { usedAt: now });
    row.usedAt = now;
  }
  return row;
}
