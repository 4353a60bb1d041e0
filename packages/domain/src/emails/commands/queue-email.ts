import { EmailSchema, type Marketplace, type User } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { DomainError } from '../../core/errors.js';
import { addJob } from '../../core/jobs.js';
import { sendEmailTask } from './deliver-email.js';
import { resolveLocale } from '../../core/locale.js';
import { emailMachine } from '../email.machine.js';
import { escapeHtml, renderEmail, type RenderedEmail } from '../render-email.js';
import { TEAM_ALERT_TEMPLATE, type EmailTemplate, type TeamTemplate } from '../templates.js';
import { namedMessageNotice, namedOrderNotice, type MessageAbout, type OrderAbout, type OrderTemplate } from '../order-templates.js';

/** The storefront page an emailed link opens (spec: Events). */
const LINK_PATHS = {
  email_confirmation: 'auth/verify-email',
  sign_in_link: 'auth/sign-in',
  password_reset: 'auth/reset-password',
  welcome: 'auth/sign-in',
} as const;
export type AccountTemplate = keyof typeof LINK_PATHS;
export type ListingNoticeTemplate = Exclude<EmailTemplate, AccountTemplate | OrderTemplate | 'payout_failed'>;

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
async function queueEmail(em: EntityManager, m: Marketplace, user: User, template: EmailTemplate, url: (language: string) => string, named?: (language: string) => { subject: string; lead: string } | undefined): Promise<void> {
  const language = emailLanguage(m, user);
  const name = user.firstName || user.displayName;
  const rendered = renderEmail({ template, locale: language, shopName: m.name, recipientName: name, url: url(language), named: named?.(language) });
  await outbox(em, m, { userId: user.id, to: user.email, template, locale: language, ...rendered });
}

/** One email into the outbox with its `send-email` job (sent only if the caller's transaction commits). */
async function outbox(em: EntityManager, m: Marketplace, email: { userId: string | null; to: string; template: string; locale: string } & Omit<RenderedEmail, 'html'> & { html: string | null }): Promise<void> {
  const row = em.create(EmailSchema, { marketplaceId: m.id, ...email, status: emailMachine.initial, provider: null, providerId: null, error: null, sentAt: null });
  await em.flush();
  await addJob(em, sendEmailTask, { marketplace_id: m.id, email_id: row.id });
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
export function queueOrderNotice(em: EntityManager, m: Marketplace, user: User, template: OrderTemplate, orderId: string, about?: OrderAbout): Promise<void> {
  return queueEmail(em, m, user, template, (language) => storefrontLink(m, language, `orders/${orderId}`), about && ((language) => namedOrderNotice(language, template, about)));
}

/** A notice of new messages in a conversation (throttled by the messages' notice job): a link to the conversation's page. */
export function queueMessageNotice(em: EntityManager, m: Marketplace, user: User, conversationId: string, about?: MessageAbout): Promise<void> {
  return queueEmail(em, m, user, 'message_notice', (language) => storefrontLink(m, language, `account/messages/${conversationId}`), about && ((language) => namedMessageNotice(language, about)));
}

/** A payout to the seller's bank failed at the provider: a link to the storefront's payouts page, where they fix their bank details. */
export function queuePayoutFailedNotice(em: EntityManager, m: Marketplace, seller: User): Promise<void> {
  return queueEmail(em, m, seller, 'payout_failed', (language) => storefrontLink(m, language, 'account/payouts'));
}

/**
 * An alert to the marketplace's team (`alert_email`, console settings): plain English text, no call
 * to action (the team acts in the console). Without an address nothing is queued: the caller logs.
 * Returns whether an email was queued.
 */
export async function queueTeamAlert(em: EntityManager, m: Marketplace, alert: { subject: string; lines: string[] }): Promise<boolean> {
  if (!m.alertEmail) return false;
  const text = [...alert.lines, '', `— ${m.name}`, ''].join('\n');
  const html = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(alert.subject)}</title></head>\n<body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:640px;margin:0 auto;padding:24px">\n${alert.lines.map((l) => `<p style="margin:0 0 12px">${escapeHtml(l)}</p>`).join('\n')}\n</body></html>\n`;
  await outbox(em, m, { userId: null, to: m.alertEmail, template: TEAM_ALERT_TEMPLATE, locale: 'en', subject: `[${m.name}] ${alert.subject}`, text, html, links: [] });
  return true;
}

/**
 * An email to someone who is not a user of the storefront (the team: an operator's invitation to the
 * back office). Plain text with one link; same outbox and job as every email.
 */
export function queueTeamEmail(em: EntityManager, m: Marketplace, e: { to: string; template: TeamTemplate; subject: string; text: string; link: { label: string; url: string } }): Promise<void> {
  return outbox(em, m, { userId: null, to: e.to, template: e.template, locale: m.locales[0] ?? 'en', subject: e.subject, text: e.text, html: null, links: [e.link] });
}
