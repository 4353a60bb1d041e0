import { EmailSchema, type EmailLink, type Marketplace, type User } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { DomainError } from '../../core/errors.js';
import { addJob } from '../../core/jobs.js';
import { sendEmailTask } from './deliver-email.js';
import { resolveLocale } from '../../core/locale.js';
import { emailMachine } from '../email.machine.js';
import { renderEmail } from '../render-email.js';
import type { EmailTemplate, TeamTemplate } from '../templates.js';
import type { OrderTemplate } from '../order-templates.js';

/** The storefront page an emailed link opens (spec: Events). */
const LINK_PATHS = {
  email_confirmation: 'auth/verify-email',
  sign_in_link: 'auth/sign-in',
  password_reset: 'auth/reset-password',
  welcome: 'auth/sign-in',
} as const;
export type AccountTemplate = keyof typeof LINK_PATHS;
export type ListingNoticeTemplate = Exclude<EmailTemplate, AccountTemplate | OrderTemplate>;

/** The language of a user's emails: their `locale`, else the marketplace default. */
export function emailLanguage(m: Marketplace, user: User): string {
  return resolveLocale(m, user.locale || undefined);
}

/** `<storefront>/<language>/<page>`; the storefront address is set by the team in the console. */
export function storefrontLink(m: Marketplace, language: string, page: string, query: Record<string, string> = {}): string {
  // A relative link in an email leads nowhere: refuse (nothing is queued, the change rolls back).
  // New marketplaces must have the address; this catches ones made before it was required.
  if (!m.storefrontUrl) {
    throw new DomainError('service_unavailable', `This marketplace cannot send emails yet: its storefront address is not set. The team sets it with \`npm run console -- marketplace update --marketplace ${m.slug}\` and {"storefront_url": "https://…"}.`);
  }
  const base = m.storefrontUrl.replace(/\/+$/, '');
  const qs = new URLSearchParams(query).toString();
  return `${base}/${language}/${page}${qs ? `?${qs}` : ''}`;
}

/**
 * Renders an email and puts it in the outbox with its `send-email` job, on the caller's entity
 * manager: inside a transaction it is sent only if the change that caused it commits.
 */
async function queueEmail(em: EntityManager, m: Marketplace, user: User, template: EmailTemplate, url: (language: string) => string): Promise<void> {
  const language = emailLanguage(m, user);
  const name = user.firstName || user.displayName;
  const rendered = renderEmail({ template, locale: language, shopName: m.name, recipientName: name, url: url(language) });
  await enqueue(em, m, { userId: user.id, to: user.email, template, locale: language, ...rendered });
}

/** One email in the outbox (queued) and its `send-email` job. */
async function enqueue(em: EntityManager, m: Marketplace, e: { userId: string | null; to: string; template: string; locale: string; subject: string; text: string | null; html: string | null; links: EmailLink[] }): Promise<void> {
  const email = em.create(EmailSchema, { marketplaceId: m.id, ...e, status: emailMachine.initial, provider: null, providerId: null, error: null, sentAt: null });
  await em.flush();
  await addJob(em, sendEmailTask, { marketplace_id: m.id, email_id: email.id });
}

/** Account emails: a link to the storefront's auth page carrying the token. */
export function queueAccountEmail(em: EntityManager, m: Marketplace, user: User, template: AccountTemplate, token: string): Promise<void> {
  return queueEmail(em, m, user, template, (language) => storefrontLink(m, language, LINK_PATHS[template], { token }));
}

/** Seller notices (offer made, denied, put on sale): a link to the seller's page of the listing. */
export function queueListingNotice(em: EntityManager, m: Marketplace, seller: User, template: ListingNoticeTemplate, listingId: string): Promise<void> {
  return queueEmail(em, m, seller, template, (language) => storefrontLink(m, language, `account/listings/${listingId}`));
}

/** Order notices (paid, sent, received; to buyer and seller): a link to the order's page. */
export function queueOrderNotice(em: EntityManager, m: Marketplace, user: User, template: OrderTemplate, orderId: string): Promise<void> {
  return queueEmail(em, m, user, template, (language) => storefrontLink(m, language, `orders/${orderId}`));
}

/** A notice of new messages in a conversation (throttled by the messages' notice job): a link to the conversation's page. */
export function queueMessageNotice(em: EntityManager, m: Marketplace, user: User, conversationId: string): Promise<void> {
  return queueEmail(em, m, user, 'message_notice', (language) => storefrontLink(m, language, `account/messages/${conversationId}`));
}

/**
 * An email to someone who is not a user of the storefront (the team: an operator's invitation to the
 * back office). Plain text with one link; same outbox and job as every email.
 */
export function queueTeamEmail(em: EntityManager, m: Marketplace, e: { to: string; template: TeamTemplate; subject: string; text: string; link: { label: string; url: string } }): Promise<void> {
  return enqueue(em, m, { userId: null, to: e.to, template: e.template, locale: m.locales[0] ?? 'en', subject: e.subject, text: e.text, html: null, links: [e.link] });
}
