import { z } from 'zod';
import { ZKey, ZLocalized, ZSlug } from '../core/schemas.js';

export const ZCategoryImport = z
  .array(
    z.strictObject({
      slug: ZSlug,
      names: ZLocalized,
      parent: ZSlug.optional().meta({ description: 'Slug of the parent category (in this file or already saved).' }),
      position: z.number().int().min(0).max(100000).default(0),
    }),
  )
  .max(5000);
export type CategoryImport = z.infer<typeof ZCategoryImport>;

export const ZTermImport = z
  .array(
    z.strictObject({
      kind: ZKey,
      slug: ZSlug,
      names: ZLocalized,
      descriptions: z.record(z.string(), z.string().max(10000)).default({}),
    }),
  )
  .max(50000);
export type TermImport = z.infer<typeof ZTermImport>;
