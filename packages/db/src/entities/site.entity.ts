import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, updatedAt, type Localized } from './common.js';

export const SiteSchema = defineEntity({
  name: 'Site',
  tableName: 'sites',
  properties: {
    ...tenantColumns(),
    kind: p.enum(['showroom', 'warehouse'] as const),
    name: p.string(),
    line1: p.string(),
    postalCode: p.string(),
    city: p.string(),
    country: p.string(),
    active: p.boolean(),
    buyerPickup: p.boolean(),
    openingHours: p.string().nullable(),
    /** opening hours per language; `openingHours` is the default language's and the fallback */
    openingHoursByLanguage: p.json<Localized>().nullable(),
    updatedAt: updatedAt(),
  },
});
export type Site = InferEntity<typeof SiteSchema>;
