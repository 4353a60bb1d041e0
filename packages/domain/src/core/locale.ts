import type { Localized, Marketplace } from '@hm/db/entities';

/**
 * The marketplace language to answer in: the requested tag when the marketplace has it, else its
 * base language (`sv-SE` → `sv`), else the marketplace default.
 */
export function resolveLocale(m: Marketplace, requested: string | undefined): string {
  const fallback = m.locales[0]!;
  if (!requested) return fallback;
  const lower = requested.toLowerCase();
  const exact = m.locales.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const base = lower.split('-')[0];
  return m.locales.find((l) => l.toLowerCase() === base) ?? fallback;
}

/** The text in `locale`, else the default language, else any language that has one. */
export function pickText(texts: Localized, locale: string, m: Marketplace): string | undefined {
  return texts[locale] ?? texts[m.locales[0]!] ?? Object.values(texts)[0];
}

/** A map per language's keys that are not among `locales`, as field errors at `<path>.<lang>` (texts per language name the marketplace's languages only). */
export function unknownLanguages(locales: readonly string[], path: string, texts: Record<string, string> | null | undefined): { location: string; message: string; value: string }[] {
  return Object.keys(texts ?? {})
    .filter((lang) => !locales.includes(lang))
    .map((lang) => ({ location: `${path}.${lang}`, message: `"${lang}" is not one of the marketplace's languages.`, value: lang }));
}

/** A text in `locale` (exact, else its base language) from a map per language, else `fallback` (the default language's). */
export function textIn(texts: Record<string, string> | null | undefined, locale: string, fallback: string): string;
export function textIn(texts: Record<string, string> | null | undefined, locale: string, fallback: string | null | undefined): string | undefined;
export function textIn(texts: Record<string, string> | null | undefined, locale: string, fallback: string | null | undefined): string | undefined {
  return texts?.[locale] ?? texts?.[locale.split('-')[0]!] ?? fallback ?? undefined;
}
