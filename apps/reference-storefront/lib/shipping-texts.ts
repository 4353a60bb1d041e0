/**
 * The marketplace's texts in the page's language (shipping, a site's opening hours): a size's, zone's or option's `names`,
 * `abouts` and a zone's `delivery_times` per language, else the default-language `name`, `about`,
 * `delivery_time` (the team may not have translated every one).
 */
interface Texts {
  name: string;
  names?: Record<string, string>;
  about?: string;
  abouts?: Record<string, string>;
  delivery_time?: string;
  delivery_times?: Record<string, string>;
}

const base = (lang: string) => lang.split('-')[0]!;
const pick = (map: Record<string, string> | undefined, lang: string) => map?.[lang] ?? map?.[base(lang)];

/** A text from one of the marketplace's maps per language (`names`, `opening_hours_by_language`, `alts`) in the page's language, else the default language's. */
export function textIn(map: Record<string, string> | undefined, lang: string, fallback: string): string;
export function textIn(map: Record<string, string> | undefined, lang: string, fallback: string | undefined): string | undefined;
export function textIn(map: Record<string, string> | undefined, lang: string, fallback: string | undefined): string | undefined {
  return pick(map, lang) ?? fallback;
}

export function shippingName(row: Texts, lang: string): string {
  return pick(row.names, lang) ?? row.name;
}

export function shippingAbout(row: Texts, lang: string): string | undefined {
  return pick(row.abouts, lang) ?? row.about;
}

export function deliveryTime(row: Texts, lang: string): string | undefined {
  return pick(row.delivery_times, lang) ?? row.delivery_time;
}

/** "Small parcel (Fits in a shoebox)" in the page's language. */
export function sizeText(size: Texts, lang: string): string {
  const about = shippingAbout(size, lang);
  return about ? `${shippingName(size, lang)} (${about})` : shippingName(size, lang);
}
