import { UserSchema, type User } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import type { CommandContext } from '../../core/context.js';
import { DomainError, NotFoundError, ValidationError } from '../../core/errors.js';
import { queueAccountEmail } from '../../emails/index.js';
import { setSellerBlocked } from '../../listings/index.js';
import { appendEvent } from '../../core/events.js';
import { countHit } from '../../core/rate-limit.js';
import { keyset } from '../../core/keyset.js';
import { entityRows } from '../../core/entity-rows.js';
import { latestFirstRows } from '../../core/latest-first.queries.js';
import type { SignUpInput, UpdateMeInput } from '../accounts.schema.js';
import { hashPassword } from '../passwords.js';
import { toUserBody } from '../user.mapper.js';
import { issueEmailToken } from './email-tokens.js';
import { EMAIL_LINK_LIMITS } from './limits.js';
import { createSession, endAllSessions, type NewSession } from './sessions.js';

/** Addresses compare case-insensitively; the address is kept as the user typed it. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function findUserByEmail(em: EntityManager, email: string): Promise<User | null> {
  return em.findOne(UserSchema, { emailNormalized: normalizeEmail(email) });
}

const inUse = () =>
  new DomainError('email_in_use', 'An account with this email address already exists. Sign in, or ask for a sign-in link.', {
    errors: [{ location: 'email', message: 'Already in use.', value: null }],
  });

const isUniqueViolation = (e: unknown) => (e as { code?: string }).code === '23505' || /unique/i.test(String((e as Error).message));

type Profile = Pick<SignUpInput, 'first_name' | 'last_name' | 'display_name' | 'bio' | 'phone' | 'locale'>;

async function insertUser(em: EntityManager, marketplaceId: string, email: string, passwordHash: string | null, p: Profile, now: Date, emailVerifiedAt: Date | null = null): Promise<User> {
  if (await findUserByEmail(em, email)) throw inUse();
  const user = em.create(UserSchema, {
    marketplaceId,
    email: email.trim(),
    emailNormalized: normalizeEmail(email),
    emailVerifiedAt,
    passwordHash,
    firstName: p.first_name ?? '',
    lastName: p.last_name ?? '',
    displayName: p.display_name ?? '',
    bio: p.bio ?? '',
    phone: p.phone ?? '',
    locale: p.locale ?? '',
    blockedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  try {
    await em.flush();
  } catch (e) {
    if (isUniqueViolation(e)) throw inUse(); // a concurrent sign-up with the same address won
    throw e;
  }
  // every way an account is made passes here: its one user.created
  await appendEvent(em, { type: 'user.created', object: toUserBody(user), at: now });
  return user;
}

/** POST /v1/users: the account, a session, and the confirmation email (sent after commit). */
export async function signUp(ctx: CommandContext, input: SignUpInput): Promise<{ user: User; session: NewSession }> {
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const now = ctx.clock.now();
  return ctx.em.transactional(async (em) => {
    const user = await insertUser(em, ctx.marketplace.id, input.email, passwordHash, input, now);
    const session = createSession(em, user, now);
    // The sign-up confirmation counts toward the address's hourly confirmation emails, never blocks sign-up.
    await countHit(em, EMAIL_LINK_LIMITS.verify_email, user.emailNormalized, now);
    await queueAccountEmail(em, ctx.marketplace, user, 'email_confirmation', issueEmailToken(em, user, 'verify_email', now));
    await em.flush();
    return { user, session };
  });
}

/** Console: an account made by the team, without a password; the welcome email signs the user in (7 days). */
export async function createUserByTeam(ctx: CommandContext, input: Profile & { email: string }): Promise<User> {
  if (input.locale !== undefined && input.locale !== '' && !ctx.marketplace.locales.includes(input.locale)) {
    throw new ValidationError([{ location: 'locale', message: `Must be one of the marketplace's languages: ${ctx.marketplace.locales.join(', ')}.`, value: input.locale }]);
  }
  const now = ctx.clock.now();
  return ctx.em.transactional(async (em) => {
    const user = await insertUser(em, ctx.marketplace.id, input.email, null, input, now);
    await queueAccountEmail(em, ctx.marketplace, user, 'welcome', issueEmailToken(em, user, 'welcome', now));
    await em.flush();
    return user;
  });
}

/**
 * An account whose address is already confirmed, made without emails: the demo shop's people on
 * the first `npm start` (test mode), who should be able to sign in and sell straight away.
 */
export async function createConfirmedUser(ctx: CommandContext, input: Profile & { email: string; password?: string }): Promise<User> {
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const now = ctx.clock.now();
  return ctx.em.transactional(async (em) => {
    // confirmed from the start, so its user.created says so
    return insertUser(em, ctx.marketplace.id, input.email, passwordHash, input, now, now);
  });
}

/** PATCH /v1/me: only the fields sent change. */
export async function updateProfile(em: EntityManager, user: User, input: UpdateMeInput): Promise<User> {
  const fields = { first_name: 'firstName', last_name: 'lastName', display_name: 'displayName', bio: 'bio', phone: 'phone', locale: 'locale' } as const;
  for (const [from, to] of Object.entries(fields) as [keyof UpdateMeInput, (typeof fields)[keyof UpdateMeInput]][]) {
    const value = input[from];
    if (value !== undefined) user[to] = value;
  }
  await em.flush();
  return user;
}

/** Console: block or unblock by address. Blocking ends the user's sessions; a blocked user gets 403 everywhere. */
export async function setUserBlocked(ctx: CommandContext, email: string, blocked: boolean): Promise<User> {
  const now = ctx.clock.now();
  return ctx.em.transactional(async (em) => {
    const user = await findUserByEmail(em, email);
    if (!user) throw new NotFoundError('A user with this email address');
    if (blocked && !user.blockedAt) {
      user.blockedAt = now;
      await endAllSessions(em, user.id, now);
    }
    if (!blocked) user.blockedAt = null;
    await em.flush();
    // A blocked seller's listings leave the shop (and come back on unblock) with the user row.
    await setSellerBlocked(em, user.id, blocked);
    return user;
  });
}

/** `users` rows → user-shaped objects (not entities: for reads that change nothing). */
const userRows = entityRows<User>(UserSchema);

/**
 * The back office's user list (GET /console/v1/users): by exact address (any case), else every user,
 * the newest first, keyset-paged on (created_at, id) like every other list; plain rows (one statement).
 */
export async function listUsersForTeam(em: EntityManager, marketplaceId: string, f: { email?: string | undefined; limit: number; cursor?: string | undefined }): Promise<{ items: User[]; nextCursor?: string }> {
  const email = f.email === undefined ? undefined : normalizeEmail(f.email);
  const pages = keyset(JSON.stringify(['team-users', marketplaceId, email ?? null]), ['timestamptz', 'uuid']);
  const after = pages.after(f.cursor);
  const rows = await latestFirstRows(em, 'users', 'created_at', email !== undefined ? [['email_normalized = ?', email]] : [], after && [new Date(after[0]), after[1]], f.limit + 1);
  return pages.page(userRows(em, rows), f.limit, (u) => [u.createdAt, u.id]);
}
