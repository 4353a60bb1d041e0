import { Secret, TOTP } from 'otpauth';
import type { Operator } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { DomainError } from '../../core/errors.js';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps; a code of the step before or after is accepted too. */
export const TOTP_PERIOD_S = 30;
const WINDOW = 1;

function totpOf(secret: string, label: string, issuer: string): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S, secret: Secret.fromBase32(secret) });
}

/**
 * The step a code is valid for (±1 step around `now`), or undefined. A code is spent once used: a
 * step at or before the last accepted one is refused (a code seen over a shoulder cannot be replayed).
 */
export function acceptedStep(operator: Operator, secret: string, code: string, now: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(secret, operator.email, 'x').validate({ token: code, timestamp: now.getTime(), window: WINDOW });
  if (delta === null) return undefined;
  const step = Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S) + delta;
  if (operator.totpLastStep !== null && operator.totpLastStep !== undefined && step <= operator.totpLastStep) return undefined;
  return step;
}

/** POST /console/v1/me/totp: a new secret (not in use until confirmed); enrolling again replaces an unconfirmed one. */
export async function startTotpEnrolment(em: EntityManager, operator: Operator, issuer: string): Promise<{ secret: string; otpauth_url: string }> {
  if (operator.totpEnabledAt) throw new DomainError('conflict', 'Two-factor codes are already on for this operator.');
  const secret = new Secret({ size: 20 }).base32;
  operator.totpSecret = secret;
  await em.flush();
  return { secret, otpauth_url: totpOf(secret, operator.email, issuer).toString() };
}

/** POST /console/v1/me/totp/confirm: a code of the new secret turns two-factor codes on. */
export async function confirmTotp(em: EntityManager, operator: Operator, code: string, now: Date): Promise<void> {
  if (operator.totpEnabledAt) throw new DomainError('conflict', 'Two-factor codes are already on for this operator.');
  if (!operator.totpSecret) throw new DomainError('conflict', 'Start enrolment first: POST /console/v1/me/totp.');
  const step = acceptedStep(operator, operator.totpSecret, code, now);
  if (step === undefined) throw new DomainError('totp_invalid', 'The code is wrong or expired; enter the code your app shows now.');
  operator.totpEnabledAt = now;
  operator.totpLastStep = step;
  await em.flush();
}
