import type { User } from '@hm/db/entities';
import type { z } from 'zod';
import type { ZUser } from './accounts.schema.js';

/** The one place a user row becomes a response body: never the password hash. */
export function toUserBody(u: User): z.infer<typeof ZUser> {
  return {
    id: u.id,
    email: u.email,
    email_verified: u.emailVerifiedAt !== null && u.emailVerifiedAt !== undefined,
    first_name: u.firstName,
    last_name: u.lastName,
    display_name: u.displayName,
    bio: u.bio,
    phone: u.phone,
    has_password: u.passwordHash !== null && u.passwordHash !== undefined,
    locale: u.locale,
    created_at: u.createdAt.toISOString(),
  };
}
