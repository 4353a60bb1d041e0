import { z } from 'zod';
import { ZDateTime, ZId } from '../core/schemas.js';
import { currentMarketplace } from '../core/request-scope.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords.js';

/** Accounts and sessions: the spec's UserBody, SessionBody, SignedIn and the request bodies. */

export const ZUser = z
  .object({
    id: ZId,
    email: z.email(),
    email_verified: z.boolean(),
    first_name: z.string(),
    last_name: z.string(),
    display_name: z.string().meta({ description: 'Public' }),
    bio: z.string().meta({ description: 'Public' }),
    phone: z.string().meta({ description: 'Private' }),
    has_password: z.boolean().meta({ description: 'False for accounts that sign in with emailed links only.' }),
    locale: z.string().meta({ description: "The user's language (decides the language of their emails); empty means the marketplace default." }),
    created_at: ZDateTime,
  })
  .meta({ id: 'User' });

export const ZSession = z
  .object({
    token: z.string().meta({ description: 'Send as header `X-User-Session` with the secret key. Returned only when the session is created.' }),
    expires_at: ZDateTime.meta({ description: 'Moves later while the session is used (30 days after last use, 90 days after sign-in at most).' }),
  })
  .meta({ id: 'Session' });

export const ZSignedIn = z.object({ session: ZSession, user: ZUser }).meta({ id: 'SignedIn' });

export const ZEmail = z.email('Must be an email address.').max(254);
export const ZPassword = z.string().min(PASSWORD_MIN, `Must be at least ${PASSWORD_MIN} characters.`).max(PASSWORD_MAX, `Must be at most ${PASSWORD_MAX} characters.`);
const ZToken = z.string().min(1).max(200).meta({ description: 'The `token` query parameter of the emailed link.' });

/** One of the calling marketplace's languages (checked together with the other fields). */
const ZUserLocale = (allowEmpty: boolean) =>
  z
    .string()
    .max(35)
    .superRefine((locale, ctx) => {
      const m = currentMarketplace();
      if (!m || m.locales.includes(locale) || (allowEmpty && locale === '')) return;
      ctx.addIssue({ code: 'custom', message: `Must be one of the marketplace's languages: ${m.locales.join(', ')}${allowEmpty ? ', or empty for the default' : ''}.` });
    })
    .meta({ description: `One of the marketplace's languages (\`locales\` of GET /v1/marketplace)${allowEmpty ? '; empty for the default' : ''}.` });

const profileFields = {
  first_name: z.string().max(100).optional(),
  last_name: z.string().max(100).optional(),
  display_name: z.string().max(100).optional(),
  bio: z.string().max(2000).optional(),
  phone: z.string().max(40).optional(),
};

export const ZSignUpInput = z.strictObject({
  email: ZEmail,
  password: ZPassword.optional().meta({ description: '8 to 128 characters. Without one the user signs in with emailed links.' }),
  ...profileFields,
  locale: ZUserLocale(false).optional(),
});
export type SignUpInput = z.infer<typeof ZSignUpInput>;

export const ZSignInInput = z.strictObject({
  email: z.string().min(1).max(254),
  password: z.string().min(1).max(PASSWORD_MAX),
});

export const ZEmailInput = z.strictObject({ email: ZEmail });
export const ZTokenInput = z.strictObject({ token: ZToken });
export const ZResetConfirmInput = z.strictObject({ token: ZToken, password: ZPassword });

export const ZUpdateMeInput = z.strictObject({ ...profileFields, locale: ZUserLocale(true).optional() });
export type UpdateMeInput = z.infer<typeof ZUpdateMeInput>;

/** Team-created accounts (console): no password; the welcome email carries a 7-day sign-in link. */
export const ZTeamUserInput = z.strictObject({ email: ZEmail, ...profileFields, locale: z.string().max(35).optional() });
