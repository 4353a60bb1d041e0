import { OperatorInvitationSchema, OperatorSchema, OperatorSessionSchema, MarketplaceSchema, type Marketplace, type Operator, type OperatorRole } from '@hm/db/entities';
import { crossTenantEm, tenantEm, type EntityManager, type MikroORM } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import { DomainError, NotFoundError } from '../../core/errors.js';
import { hashToken, newSecretToken } from '../../core/secret-token.js';
import { countHit, lockCounter, rateLimited } from '../../core/rate-limit.js';
import { decoyHash, hashPassword, normalizeEmail, verifyPassword } from '../../accounts/index.js';
import { queueTeamEmail } from '../../emails/index.js';
import { INVITATION_TOKEN_PREFIX, INVITATION_TTL_MS, OPERATOR_SIGN_IN_FAILURES } from '../limits.js';
import { appendAudit, type Actor } from './audit.js';
import { createOperatorSession } from './sessions.js';
import { acceptedStep } from './totp.js';

export function toOperatorBody(o: Operator) {
  return { id: o.id, email: o.email, role: o.role, totp_enabled: o.totpEnabledAt !== null && o.totpEnabledAt !== undefined, invitation_pending: !o.passwordHash, created_at: o.createdAt.toISOString() };
}

export function listOperators(em: EntityManager): Promise<Operator[]> {
  return em.find(OperatorSchema, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

export async function findOperator(em: EntityManager, id: string): Promise<Operator> {
  const o = await em.findOne(OperatorSchema, { id });
  if (!o) throw new NotFoundError('This operator');
  return o;
}

/**
 * A new operator of the marketplace (CLI `operators create`, POST /console/v1/operators) and its
 * invitation: an email with a link to set the password, valid 7 days. The link is returned too (the
 * CLI prints it). An address already in the team is 409.
 */
export async function inviteOperator(
  em: EntityManager,
  m: Marketplace,
  input: { email: string; role: OperatorRole },
  opts: { now: Date; linkBase: string },
): Promise<{ operator: Operator; link: string; expiresAt: Date }> {
  const email = input.email.trim();
  return em.transactional(async (tx) => {
    const existing = await tx.findOne(OperatorSchema, { email: { $ilike: email.replace(/[\\%_]/g, (c) => `\\${c}`) } });
    if (existing) throw new DomainError('email_in_use', 'This address is already in the team.');
    const operator = tx.create(OperatorSchema, { marketplaceId: m.id, email, role: input.role, passwordHash: null, totpSecret: null, totpEnabledAt: null, totpLastStep: null, createdAt: opts.now, updatedAt: opts.now });
    await tx.flush(); // the invitation refers to it (no ORM relation orders the inserts)
    const token = newSecretToken(INVITATION_TOKEN_PREFIX);
    const expiresAt = new Date(opts.now.getTime() + INVITATION_TTL_MS);
    tx.create(OperatorInvitationSchema, { marketplaceId: m.id, operatorId: operator.id, tokenHash: hashToken(token), createdAt: opts.now, expiresAt, usedAt: null });
    const link = `${opts.linkBase.replace(/\/+$/, '')}/invitations/accept?token=${token}`;
    await tx.flush();
    await queueTeamEmail(tx, m, {
      to: email,
      template: 'operator_invitation',
      subject: `You are invited to the ${m.name} back office`,
      text: `You were invited to the team of ${m.name} as ${input.role}. Set your password within 7 days:\n\n${link}\n`,
      link: { label: 'Set your password', url: link },
    });
    return { operator, link, expiresAt };
  });
}

/** The marketplace an invitation token belongs to (undefined when no invitation has it). */
export async function invitationMarketplace(orm: MikroORM, token: string): Promise<Marketplace | undefined> {
  if (!token.startsWith(INVITATION_TOKEN_PREFIX) || token.length > 100) return undefined;
  const found = await crossTenantEm(orm).findOne(OperatorInvitationSchema, { tokenHash: hashToken(token) }, { filters: false });
  if (!found) return undefined;
  return crossTenantEm(orm).findOneOrFail(MarketplaceSchema, { id: found.marketplaceId });
}

/**
 * POST /console/v1/invitations/accept: the password is set, the link spent, and the operator signed
 * in. An unknown link is 422 `link_invalid`, a used one `link_used`, one over 7 days old `link_expired`.
 */
export async function acceptInvitation(orm: MikroORM, input: { token: string; password: string }, opts: { now: Date; requestId: string }) {
  const m = await invitationMarketplace(orm, input.token);
  if (!m) throw new DomainError('link_invalid', 'This invitation link is not valid. Ask an admin of the team for a new one.');
  const em = tenantEm(orm, m.id);
  const passwordHash = await hashPassword(input.password);
  return em.transactional(async (tx) => {
    const inv = await tx.findOneOrFail(OperatorInvitationSchema, { tokenHash: hashToken(input.token) }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (inv.usedAt) throw new DomainError('link_used', 'This invitation was already used. Sign in, or ask an admin for a new one.');
    if (inv.expiresAt <= opts.now) throw new DomainError('link_expired', 'This invitation is over 7 days old. Ask an admin of the team for a new one.');
    const operator = await tx.findOneOrFail(OperatorSchema, { id: inv.operatorId });
    inv.usedAt = opts.now;
    operator.passwordHash = passwordHash;
    const session = createOperatorSession(tx, operator, opts.now);
    await tx.flush();
    await appendAudit(tx, m.id, { actor: { type: 'operator', id: operator.id, email: operator.email }, action: 'invitation.accept', target: { type: 'operator', id: operator.id }, data: {}, requestId: opts.requestId, at: opts.now });
    return { operator, token: session.token, marketplace: m };
  });
}

type Outcome = { ok: { operator: Operator; token: string } } | { error: DomainError };

/**
 * POST /console/v1/sessions: like users' sign-in (the password checked with no database connection
 * held; failures counted exactly under a lock; 10 failures in 15 minutes lock the address until the
 * window ends, 429 with Retry-After). With two-factor codes on, no code is 401 `totp_required`
 * (not a failure: the app asks for it) and a wrong one `totp_invalid` (a failure: codes cannot be
 * guessed through). Every attempt, either way, leaves one audit row.
 */
export async function signInOperator(
  em: EntityManager,
  m: Marketplace,
  input: { email: string; password: string; code?: string | undefined },
  opts: { now: Date; requestId: string },
): Promise<{ operator: Operator; token: string }> {
  const { now } = opts;
  const subject = normalizeEmail(input.email);
  const find = (e: EntityManager) => e.findOne(OperatorSchema, { email: { $ilike: subject.replace(/[\\%_]/g, (c) => `\\${c}`) } });
  const locked = async (e: EntityManager) => {
    const lock = await lockCounter(e, OPERATOR_SIGN_IN_FAILURES, subject, now);
    return lock.count >= OPERATOR_SIGN_IN_FAILURES.limit ? rateLimited('Too many failed sign-ins for this address. Try again in {seconds} seconds.', lock.windowEnd, now) : undefined;
  };
  const first = await em.transactional(async (e) => ({ error: await locked(e), operator: await find(e) }));
  if (first.error) throw first.error;
  const ok = await verifyPassword(input.password, first.operator?.passwordHash ?? (await decoyHash()));
  const outcome: Outcome = await em.transactional(async (tx): Promise<Outcome> => {
    const error = await locked(tx);
    if (error) return { error };
    const operator = ok && first.operator ? await tx.findOne(OperatorSchema, { id: first.operator.id }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    const actor: Actor = { type: 'operator', id: first.operator?.id ?? null, email: first.operator?.email ?? input.email.slice(0, 254) };
    const audit = (action: string, data: Record<string, unknown>) =>
      appendAudit(tx, m.id, { actor, action, target: { type: 'operator', id: first.operator?.id ?? subject.slice(0, 254) }, data: { email: input.email.slice(0, 254), ...data }, requestId: opts.requestId, at: now });
    const fail = async (reason: string, err: DomainError, count = true): Promise<Outcome> => {
      if (count) await countHit(tx, OPERATOR_SIGN_IN_FAILURES, subject, now);
      await audit('session.sign_in_failed', { reason });
      return { error: err };
    };
    if (!operator || !operator.passwordHash || operator.passwordHash !== first.operator!.passwordHash) {
      return fail('invalid_credentials', new DomainError('invalid_credentials', 'The email address or password is wrong.'));
    }
    if (operator.totpEnabledAt && operator.totpSecret) {
      if (input.code === undefined || input.code === '') return fail('totp_required', new DomainError('totp_required', 'This operator has two-factor codes on: send `code`, the 6 digits the authenticator app shows now.'), false);
      const step = acceptedStep(operator, operator.totpSecret, input.code, now);
      if (step === undefined) return fail('totp_invalid', new DomainError('totp_invalid', 'The two-factor code is wrong or expired; enter the code the app shows now.'));
      operator.totpLastStep = step;
    }
    const session = createOperatorSession(tx, operator, now);
    await tx.flush();
    await audit('session.sign_in', {});
    return { ok: { operator, token: session.token } };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.ok;
}

/**
 * The marketplace's admins, locked (FOR UPDATE) in one statement: a demotion or removal counts them
 * under the lock, so two admins demoting each other at once cannot leave the team without one.
 */
async function lockAdmins(tx: EntityManager): Promise<Operator[]> {
  return tx.find(OperatorSchema, { role: 'admin' }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } });
}

const lastAdmin = (what: string) => new DomainError('last_admin', `This is the marketplace's last admin: ${what}. Make another operator admin first.`);

/** An admin changes a team member's role; the last admin cannot become a viewer (409 `last_admin`). */
export async function setOperatorRole(em: EntityManager, id: string, role: OperatorRole): Promise<Operator> {
  return em.transactional(async (tx) => {
    const admins = await lockAdmins(tx);
    const o = await tx.findOne(OperatorSchema, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!o) throw new NotFoundError('This operator');
    if (o.role === 'admin' && role !== 'admin' && admins.length <= 1) throw lastAdmin('it cannot become a viewer');
    o.role = role;
    await tx.flush();
    return o;
  });
}

/**
 * An admin removes a member of the team: the operator, their sessions (ended at once: the next
 * request with one is 401) and their invitations go; the audit trail keeps their id and address.
 * The last admin cannot be removed (409 `last_admin`).
 */
export async function removeOperator(em: EntityManager, id: string): Promise<Operator> {
  return em.transactional(async (tx) => {
    const admins = await lockAdmins(tx);
    const o = await tx.findOne(OperatorSchema, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!o) throw new NotFoundError('This operator');
    if (o.role === 'admin' && admins.length <= 1) throw lastAdmin('it cannot be removed');
    await tx.nativeDelete(OperatorSessionSchema, { operatorId: o.id });
    await tx.nativeDelete(OperatorInvitationSchema, { operatorId: o.id });
    await tx.nativeDelete(OperatorSchema, { id: o.id });
    return o;
  });
}

/**
 * An operator with a password already set (the demo's admin and viewer), found by address or made:
 * safe to run on every start. An existing one keeps its role and gets this password.
 */
export async function ensureOperatorWithPassword(em: EntityManager, m: Marketplace, input: { email: string; role: OperatorRole; password: string }, now: Date): Promise<Operator> {
  const passwordHash = await hashPassword(input.password);
  return em.transactional(async (tx) => {
    const found = await tx.findOne(OperatorSchema, { email: input.email });
    if (found) {
      found.passwordHash = passwordHash;
      await tx.flush();
      return found;
    }
    const operator = tx.create(OperatorSchema, { marketplaceId: m.id, email: input.email, role: input.role, passwordHash, totpSecret: null, totpEnabledAt: null, totpLastStep: null, createdAt: now, updatedAt: now });
    await tx.flush();
    return operator;
  });
}
