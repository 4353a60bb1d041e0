import { z } from 'zod';
import { ZCursor, ZLocaleQuery, ZTermKindParam, pageLimit } from '../core/schemas.js';

export const ZCategory = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    parent_id: z.string().optional(),
    position: z.number().int(),
  })
  .meta({ id: 'Category' });

export const ZCategoryList = z.object({ items: z.array(ZCategory) }).meta({ id: 'CategoryList' });

export const ZTerm = z
  .object({
    id: z.string(),
    kind: z.string(),
    name: z.string(),
    slug: z.string(),
    description: z.string().optional(),
    listing_count: z.number().int().optional().meta({ description: 'Listings on sale with this term; present with `in_use=true`.' }),
  })
  .meta({ id: 'Term' });

export const ZTermList = z
  .object({ items: z.array(ZTerm), next_cursor: z.string().optional().meta({ description: 'Absent on the last page.' }) })
  .meta({ id: 'TermList' });

export const ZListCategoriesInput = z.strictObject({ locale: ZLocaleQuery });

export const ZListTermsInput = z.strictObject({
  kind: ZTermKindParam,
  q: z.string().max(200).optional().meta({ description: 'Names starting with this (accents and case ignored).' }),
  limit: pageLimit(200, 50),
  cursor: ZCursor,
  locale: ZLocaleQuery,
  // a boolean in the document; the query string's `true` / `false` are parsed to one
  in_use: z
    .stringbool()
    .meta({ description: 'Only terms used by listings on sale, all at once (no paging, `q` ignored), each with `listing_count`.', override: { type: 'boolean' } })
    .optional(),
});
export type ListTermsInput = z.infer<typeof ZListTermsInput>;

export const ZGetTermInput = z.strictObject({
  kind: z.string().min(1).max(40),
  slug: z.string().min(1).max(80),
  locale: ZLocaleQuery,
});
