import { EmailSchema, type Marketplace, type User } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { addJob } from '../../shared/jobs.js';
import { resolveLocale } from '../../shared/locale.js';
import { renderEmail } from '../render-email.js';
import type { EmailTemplate } from '../templates.js';

export const SEND_EMAIL_TASK = 'send-email';
/** Transient failures (provider 5xx/429, network) are retried with graphile-worker's backoff: ~1 s … ~3 h. */
export const SEND_EMAIL_MAX_ATTEMPTS = 10;

/** The storefront page an emailed link opens (spec: Events). */
const LINK_PATHS: Record<EmailTemplate, string> = {
  email_confirmation: 'auth/verify-email',
  sign_in_link: 'auth/sign-in',
  password_reset: 'auth/reset-password',
  welcome: 'auth/sign-in',
};

/** The language of a user's emails: their `locale`, else the marketplace default. */
export function emailLanguage(m: Marketplace, user: User): string {
  return resolveLocale(m, user.locale || undefined);
}

/** `<storefront>/<language>/<page>?token=…`; the storefront address is set by the team in the console. */
export function storefrontLink(m: Marketplace, language: string, page: string, token: string): string {
  const base = (m.storefrontUrl ?? '').replace(/\/+$/, '');
  return `${base}/${language}/${page}?token=${encodeURIComponent(token)}`;
}

/**
 * Renders an account email and puts it in the outbox with its `send-email` job, on the caller's
 * entity manager: inside a transaction it is sent only if the change that caused it commits.
 */
export async function queueAccountEmail(em: EntityManager, m: Marketplace, user: User, template: EmailTemplate, token: string): Promise<void> {
  const language = emailLanguage(m, user);
  const url = storefrontLink(m, language, LINK_PATHS[template], token);
  const name = user.firstName || user.displayName;
  const rendered = renderEmail({ template, locale: language, shopName: m.name, recipientName: name, url });
  const email = em.create(EmailSchema, {
    marketplaceId: m.id,
    userId: user.id,
    to: user.email,
    template,
    locale: language,
    ...rendered,
    status: 'queued',
    provider: null,
    providerId: null,
    error: null,
    sentAt: null,
  });
  await em.flush();
  await addJob(em, SEND_EMAIL_TASK, { marketplace_id: m.id, email_id: email.id }, { maxAttempts: SEND_EMAIL_MAX_ATTEMPTS });
}
