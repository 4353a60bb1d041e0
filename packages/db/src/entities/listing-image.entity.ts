import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns } from './common.js';

/** A listing photo: the original waits in the image store until `process-image` makes the sizes (then it is deleted). */
export const ListingImageSchema = defineEntity({
  name: 'ListingImage',
  tableName: 'listing_images',
  properties: {
    ...tenantColumns(),
    listingId: p.uuid(),
    position: p.integer(),
    status: p.enum(['processing', 'ready', 'failed'] as const),
    /** detected from the bytes: jpeg, png or webp */
    format: p.string(),
    bytes: p.integer(),
    width: p.integer().nullable(),
    height: p.integer().nullable(),
    error: p.text().nullable(),
    updatedAt: p.datetime(),
  },
});
export type ListingImage = InferEntity<typeof ListingImageSchema>;
