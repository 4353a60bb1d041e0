import { SiteSchema, type Marketplace, type Site } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import type { CommandContext } from '../../core/context.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { unknownLanguages } from '../../core/locale.js';
import type { SiteInput, SiteOpeningHoursInput } from '../locations.schema.js';

export function toSiteBody(s: Site) {
  return {
    id: s.id,
    kind: s.kind,
    name: s.name,
    line1: s.line1,
    postal_code: s.postalCode,
    city: s.city,
    country: s.country,
    active: s.active,
    buyer_pickup: s.buyerPickup,
    created_at: s.createdAt.toISOString(),
    ...(s.openingHours ? { opening_hours: s.openingHours } : {}),
    ...(s.openingHoursByLanguage && Object.keys(s.openingHoursByLanguage).length ? { opening_hours_by_language: s.openingHoursByLanguage } : {}),
  };
}

export async function listActiveSites(ctx: CommandContext): Promise<Site[]> {
  return ctx.em.find(SiteSchema, { active: true }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** Opening hours per language name only the marketplace's languages. */
function checkLanguages(marketplace: Pick<Marketplace, 'locales'>, path: string, texts: Record<string, string> | undefined): void {
  const errors = unknownLanguages(marketplace.locales, path, texts);
  if (errors.length) throw new ValidationError(errors);
}

export async function createSite(em: EntityManager, marketplace: Pick<Marketplace, 'id' | 'locales'>, input: SiteInput): Promise<Site> {
  checkLanguages(marketplace, 'site.opening_hours_by_language', input.opening_hours_by_language);
  const site = em.create(SiteSchema, {
    marketplaceId: marketplace.id,
    kind: input.kind,
    name: input.name,
    line1: input.line1,
    postalCode: input.postal_code,
    city: input.city,
    country: input.country,
    active: input.active,
    buyerPickup: input.buyer_pickup,
    openingHours: input.opening_hours ?? null,
    openingHoursByLanguage: input.opening_hours_by_language ?? null,
  });
  await em.flush();
  return site;
}

/** `sites set-opening-hours`: the default language's text (null removes it) and/or the texts per language (replaced as a whole). */
export async function setSiteOpeningHours(em: EntityManager, marketplace: Pick<Marketplace, 'id' | 'locales'>, id: string, input: SiteOpeningHoursInput): Promise<Site> {
  checkLanguages(marketplace, 'opening_hours_by_language', input.opening_hours_by_language);
  const site = await em.findOne(SiteSchema, { id, marketplaceId: marketplace.id });
  if (!site) throw new NotFoundError('Site');
  if (input.opening_hours !== undefined) site.openingHours = input.opening_hours || null;
  if (input.opening_hours_by_language !== undefined) site.openingHoursByLanguage = Object.keys(input.opening_hours_by_language).length ? input.opening_hours_by_language : null;
  await em.flush();
  return site;
}
