import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, updatedAt, type Localized } from './common.js';

export const CategorySchema = defineEntity({
  name: 'Category',
  tableName: 'categories',
  properties: {
    ...tenantColumns(),
    slug: p.string(),
    names: p.json<Localized>(),
    parentId: p.uuid().nullable(),
    position: p.integer(),
    updatedAt: updatedAt(),
  },
});
export type Category = InferEntity<typeof CategorySchema>;
