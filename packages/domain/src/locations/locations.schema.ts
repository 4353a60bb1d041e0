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
    opening_hours: z.string().optional().meta({ description: 'Free text.' }),
  })
  .meta({ id: 'Site' });

export const ZSiteList = z.object({ items: z.array(ZSite) }).meta({ id: 'SiteList' });

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
});
export type SiteInput = z.infer<typeof ZSiteInput>;
