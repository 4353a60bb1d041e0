import { MarketplaceSchema, type Marketplace } from '@hm/db/entities';
import { tenantEm, type EntityManager } from '@hm/db/orm';
import { z } from 'zod';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { ZCurrencyCode, ZLocaleTag, ZSlug } from '../../core/schemas.js';
import type { MarketplaceSettings } from '../marketplace.schema.js';
import { crossCheckSettings } from '../marketplace.settings.js';
import { queueReprice } from '../../rates/index.js';
import { queuePendingContacts } from '../../newsletter/index.js';

export const ZCreateMarketplace = z.strictObject({
  name: z.string().min(1).max(100).describe('Shown to buyers and in emails.'),
  slug: ZSlug.describe('How operators name the marketplace (lower-case letters, digits, hyphens).'),
  currencies: z.array(ZCurrencyCode).max(20).describe('Accepted currencies, the default first.'),
  locales: z.array(ZLocaleTag).min(1).max(20).describe('Languages, the default first.'),
  // Required: every marketplace emails links to its storefront (sign-up confirmation at the least).
  storefront_url: z.url({ protocol: /^https?$/ }).max(500).describe('The shop address used in emailed links (required: links in emails must be absolute).'),
});
export type CreateMarketplaceInput = z.infer<typeof ZCreateMarketplace>;

const DEFAULT_RULES = { min_images: 1, require_approval: false, require_category: false, required_terms: [], valuations: false };

export async function createMarketplace(em: EntityManager, input: CreateMarketplaceInput): Promise<Marketplace> {
  const existing = await em.findOne(MarketplaceSchema, { slug: input.slug });
  if (existing) throw new ConflictError(`A marketplace with slug "${input.slug}" already exists.`);
  const errors = crossCheckSettings({ currencies: input.currencies, locales: input.locales, term_kinds: [], listings: DEFAULT_RULES, shipping: { sizes: [], zones: [] } });
  if (errors.length) throw new ValidationError(errors);
  const m = em.create(MarketplaceSchema, {
    name: input.name,
    slug: input.slug,
    currencies: input.currencies,
    locales: input.locales,
    termKinds: [],
    listingRules: DEFAULT_RULES,
    shipping: { sizes: [], zones: [] },
    commissionPercent: 0,
    storefrontUrl: input.storefront_url ?? null,
  });
  await em.flush();
  return m;
}

export async function findMarketplaceBySlug(em: EntityManager, slug: string): Promise<Marketplace> {
  const m = await em.findOne(MarketplaceSchema, { slug });
  if (!m) throw new NotFoundError(`Marketplace "${slug}"`);
  return m;
}

/** Applies any subset of the settings (already schema-checked); the result as a whole must be consistent. */
export async function updateMarketplace(em: EntityManager, m: Marketplace, s: MarketplaceSettings): Promise<Marketplace> {
  const effective = {
    currencies: s.currencies ?? m.currencies,
    locales: s.locales ?? m.locales,
    term_kinds: s.term_kinds ?? m.termKinds,
    listings: s.listings ?? m.listingRules,
    shipping: s.shipping ?? (m.shipping as NonNullable<MarketplaceSettings['shipping']>),
  };
  const errors = crossCheckSettings(effective);
  if (errors.length) throw new ValidationError(errors);
  if (s.name !== undefined) m.name = s.name;
  m.currencies = effective.currencies;
  m.locales = effective.locales;
  m.termKinds = effective.term_kinds;
  m.listingRules = effective.listings;
  m.shipping = effective.shipping;
  if (s.commission_percent !== undefined) m.commissionPercent = s.commission_percent;
  if (s.storefront_url !== undefined) m.storefrontUrl = s.storefront_url;
  if (s.abuse_limits !== undefined) m.abuseLimits = { ...m.abuseLimits, ...s.abuse_limits };
  if (s.payout_service_agreement !== undefined) m.payoutServiceAgreement = s.payout_service_agreement;
  if (s.alert_email !== undefined) m.alertEmail = s.alert_email;
  const audienceSet = s.newsletter_audience_id != null && s.newsletter_audience_id !== m.newsletterAudienceId;
  if (s.newsletter_audience_id !== undefined) m.newsletterAudienceId = s.newsletter_audience_id;
  await em.transactional(async (tx) => {
    await tx.flush();
    // prices compare in the default currency, which may have changed: reprice with the settings
    if (s.currencies) await queueReprice(tx, m.id);
  });
  // sign-ups that waited for an audience go to the contact list now (a job per sign-up, keyed: running this twice queues each once)
  if (audienceSet) await tenantEm(em, m.id).transactional((tx) => queuePendingContacts(tx, m.id));
  return m;
}
