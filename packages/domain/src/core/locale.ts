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
