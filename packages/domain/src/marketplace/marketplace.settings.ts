import type { FieldError } from '../core/errors.js';
import { unknownLanguages } from '../core/locale.js';
import type { MarketplaceSettings } from './marketplace.schema.js';

type Effective = Required<Pick<MarketplaceSettings, 'currencies' | 'locales' | 'term_kinds' | 'listings' | 'shipping'>>;

/**
 * Rules across fields that a schema per field cannot see: every reference in the settings points
 * at something that exists (term kinds, sizes, zones, options, languages).
 */
export function crossCheckSettings(s: Effective): FieldError[] {
  const errors: FieldError[] = [];
  const err = (path: string, message: string, value: unknown) => errors.push({ location: path, message, value });

  dupes(s.currencies).forEach((c) => err('currencies', `Currency ${c} is listed twice.`, c));
  dupes(s.locales).forEach((l) => err('locales', `Language ${l} is listed twice.`, l));
  const kinds = s.term_kinds.map((k) => k.key);
  dupes(kinds).forEach((k) => err('term_kinds', `Term kind "${k}" is listed twice.`, k));
  s.term_kinds.forEach((k, i) => {
    errors.push(...unknownLanguages(s.locales, `term_kinds.${i}.names`, k.names));
    if (s.locales[0] && !k.names[s.locales[0]]) err(`term_kinds.${i}.names`, `A name in the default language (${s.locales[0]}) is required.`, k.names);
  });
  s.listings.required_terms.forEach((k, i) => {
    if (!kinds.includes(k)) err(`listings.required_terms.${i}`, `"${k}" is not one of the marketplace's term kinds.`, k);
  });

  const sh = s.shipping;
  // the shipping table's texts per language name only the marketplace's languages
  const languagesOf = (path: string, texts: Record<string, string> | undefined) => void errors.push(...unknownLanguages(s.locales, path, texts));
  for (const [list, rows] of [['sizes', sh.sizes], ['zones', sh.zones], ['options', sh.options ?? []]] as const) {
    rows.forEach((row, i) => {
      const r = row as { names?: Record<string, string>; abouts?: Record<string, string>; delivery_times?: Record<string, string> };
      languagesOf(`shipping.${list}.${i}.names`, r.names);
      languagesOf(`shipping.${list}.${i}.abouts`, r.abouts);
      languagesOf(`shipping.${list}.${i}.delivery_times`, r.delivery_times);
    });
  }
  const sizes = sh.sizes.map((x) => x.key);
  const zones = sh.zones.map((x) => x.key);
  const options = (sh.options ?? []).map((x) => x.key);
  dupes(sizes).forEach((k) => err('shipping.sizes', `Size "${k}" is listed twice.`, k));
  dupes(zones).forEach((k) => err('shipping.zones', `Zone "${k}" is listed twice.`, k));
  dupes(options).forEach((k) => err('shipping.options', `Option "${k}" is listed twice.`, k));
  if (sh.currency && s.currencies.length > 0 && !s.currencies.includes(sh.currency)) {
    err('shipping.currency', `${sh.currency} is not one of the marketplace's currencies.`, sh.currency);
  }
  for (const [option, bySize] of Object.entries(sh.delivery ?? {})) {
    if (!options.includes(option)) err(`shipping.delivery.${option}`, `"${option}" is not a shipping option.`, option);
    for (const [size, byZone] of Object.entries(bySize)) {
      if (!sizes.includes(size)) err(`shipping.delivery.${option}.${size}`, `"${size}" is not a shipping size.`, size);
      for (const zone of Object.keys(byZone)) {
        if (!zones.includes(zone)) err(`shipping.delivery.${option}.${size}.${zone}`, `"${zone}" is not a shipping zone.`, zone);
      }
    }
  }
  for (const [size, byZone] of Object.entries(sh.collection ?? {})) {
    if (!sizes.includes(size)) err(`shipping.collection.${size}`, `"${size}" is not a shipping size.`, size);
    for (const zone of Object.keys(byZone)) {
      if (!zones.includes(zone)) err(`shipping.collection.${size}.${zone}`, `"${zone}" is not a shipping zone.`, zone);
    }
  }
  for (const size of Object.keys(sh.storage_fees ?? {})) {
    if (!sizes.includes(size)) err(`shipping.storage_fees.${size}`, `"${size}" is not a shipping size.`, size);
  }
  (sh.booking?.zones ?? []).forEach((zone, i) => {
    if (!zones.includes(zone)) err(`shipping.booking.zones.${i}`, `"${zone}" is not a shipping zone.`, zone);
  });
  return errors;
}

function dupes<T>(xs: T[]): T[] {
  return [...new Set(xs.filter((x, i) => xs.indexOf(x) !== i))];
}
