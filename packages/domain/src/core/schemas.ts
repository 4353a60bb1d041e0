import { z } from 'zod';
import { currentMarketplace } from './request-scope.js';

/** Shared request and response building blocks of the /v1 contract. */

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const ZCurrencyCode = z
  .string()
  .refine((c) => /^[A-Z]{3}$/.test(c) && CURRENCIES.has(c), 'Must be an ISO 4217 currency code in capitals, e.g. EUR.')
  .meta({ description: 'ISO 4217 currency code', example: 'EUR' });

export const ZCountryCode = z.string().regex(/^[A-Z]{2}$/, 'Must be an ISO 3166-1 alpha-2 code in capitals.').meta({ example: 'SE' });

/** A BCP 47 language tag in its canonical form (`en`, `sv`, `pt-BR`). */
export const ZLocaleTag = z
  .string()
  .min(2)
  .max(35)
  .refine((tag) => {
    try {
      return Intl.getCanonicalLocales(tag)[0] === tag;
    } catch {
      return false;
    }
  }, 'Must be a canonical BCP 47 language tag, e.g. "en" or "pt-BR".');

export const ZSlug = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Lower-case letters, digits and single hyphens.');

export const ZKey = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'Lower-case letters, digits, "-" and "_".');

export const ZId = z.uuid().meta({ description: 'UUID; opaque to clients.' });

export const ZDateTime = z.iso.datetime().meta({ description: 'RFC 3339 date-time in UTC' });

export const ZLocalized = z.record(z.string(), z.string().min(1).max(200));

/** Query `locale`: any tag is accepted (not an empty one); unknown ones fall back to the marketplace's default language. */
export const ZLocaleQuery = z.string().min(1).max(35).optional().meta({ description: "Language for names (a language tag; an empty value is refused); falls back to the marketplace's default language." });

/** Opaque cursor for keyset paging. */
export const ZCursor = z.string().max(500).optional().meta({ description: '`next_cursor` of the previous page.' });

export function pageLimit(max: number, dflt: number) {
  return z.coerce
    .number()
    .int()
    .min(1)
    .max(max)
    .default(dflt)
    .meta({ description: `Page size, 1..${max} (default ${dflt}).` });
}

/** A term kind of the calling marketplace (checked with the other fields, see request-scope.ts). */
export const ZTermKindParam = z
  .string()
  .min(1)
  .max(40)
  .superRefine((kind, ctx) => {
    const m = currentMarketplace();
    if (!m || m.termKinds.some((k) => k.key === kind)) return;
    const known = m.termKinds.map((k) => k.key);
    ctx.addIssue({ code: 'custom', message: `Must be one of the marketplace's term kinds: ${known.length ? known.join(', ') : 'it has none yet'}.` });
  })
  .meta({ description: "One of the marketplace's term kinds (see `term_kinds` of GET /v1/marketplace)." });
