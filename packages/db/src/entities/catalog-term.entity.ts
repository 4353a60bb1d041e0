import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, updatedAt, type Localized } from './common.js';

export const CatalogTermSchema = defineEntity({
  name: 'CatalogTerm',
  tableName: 'catalog_terms',
  properties: {
    ...tenantColumns(),
    kind: p.string(),
    slug: p.string(),
    names: p.json<Localized>(),
    descriptions: p.json<Localized>(),
    updatedAt: updatedAt(),
  },
});
export type CatalogTerm = InferEntity<typeof CatalogTermSchema>;
