import { z } from 'zod';
import { ZCountryCode, ZDateTime } from '../core/schemas.js';

export const ZSite = z
  .object({
    id: z.string(),
    kind: z.enum(['showroom', 'warehouse']),
    name: z.string(),
    line1: z.string(),
    postal_code: z.string(),
    city: z.string(),
    country: z.string(),
    active: z.boolean(),
    buyer_pickup: z.boolean(),
    created_at: ZDateTime,
    opening_hours: z.string().optional().meta({ description: "Free text, in the marketplace's default language." }),
    opening_hours_by_language: z.record(z.string(), z.string()).optional().meta({ description: 'Opening hours per language (`{"en": …, "sv": …}`); `opening_hours` is the default language\'s and the fallback.' }),
  })
  .meta({ id: 'Site' });

export const ZSiteList = z.object({ items: z.array(ZSite) }).meta({ id: 'SiteList' });

/** Opening hours per language, each one of the marketplace's languages (checked against them when written). */
export const ZOpeningHoursByLanguage = z.record(z.string().min(1).max(35), z.string().min(1).max(500));

/** Console input: SiteBody without id and created_at. */
export const ZSiteInput = z.strictObject({
  kind: z.enum(['showroom', 'warehouse']),
  name: z.string().min(1).max(100),
  line1: z.string().min(1).max(200),
  postal_code: z.string().min(1).max(20),
  city: z.string().min(1).max(100),
  country: ZCountryCode,
  active: z.boolean().default(true),
  buyer_pickup: z.boolean().default(false),
  opening_hours: z.string().max(500).optional(),
  opening_hours_by_language: ZOpeningHoursByLanguage.optional(),
});
export type SiteInput = z.infer<typeof ZSiteInput>;

/** Console input of `sites set-opening-hours`: the texts given replace the site's (an empty map removes them all). */
export const ZSiteOpeningHoursInput = z.strictObject({
  opening_hours: z.string().max(500).nullable().optional(),
  opening_hours_by_language: ZOpeningHoursByLanguage.optional(),
});
export type SiteOpeningHoursInput = z.infer<typeof ZSiteOpeningHoursInput>;
