/** Money in the storefront: the API speaks minor units; people type and read major units. */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** The page language's digit-group and decimal marks ("," and "." in English, " " and "," in Swedish). */
function marks(lang: string): { group: string; decimal: string } {
  const parts = new Intl.NumberFormat(lang).formatToParts(12345.6);
  return { group: parts.find((p) => p.type === 'group')?.value ?? '', decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.' };
}

const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What a person typed, in the page's language, as minor units: "1 250,50" (sv), "1,250.50" (en),
 * "1.250,50" (de), or a plain "1250.50" → 125050 for SEK. Undefined when it cannot be read for sure:
 * "1250,50" on an English page is refused (is the comma a decimal mark or a misplaced digit group?),
 * so an amount is never silently read as a hundred times another.
 */
export function toMinor(input: string, currency: string, lang = 'en'): number | undefined {
  const { group, decimal } = marks(lang);
  let s = input.replace(/\s/g, '');
  if (s === '') return undefined;
  // a space-like group mark (Swedish) is gone with the spaces; any other must group by thousands
  if (group && !/\s/.test(group) && s.includes(group)) {
    if (!new RegExp(`^\\d{1,3}(${escape(group)}\\d{3})+(${escape(decimal)}\\d+)?$`).test(s)) return undefined;
    s = s.split(group).join('');
  }
  s = s.replace(decimal, '.');
  if (!/^\d+(\.\d+)?$/.test(s)) return undefined;
  const digits = minorDigits(currency);
  const [whole, fraction = ''] = s.split('.') as [string, string?];
  if (fraction.length > digits) return undefined;
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/** Minor units as a person types them in this language, without digit groups: 125050 → "1250,50" (sv). */
export function toMajor(minor: number, currency: string, lang = 'en'): string {
  const digits = minorDigits(currency);
  const whole = minor % 10 ** digits === 0;
  return new Intl.NumberFormat(lang, { useGrouping: false, minimumFractionDigits: whole ? 0 : digits, maximumFractionDigits: digits }).format(minor / 10 ** digits);
}

/** Money as the page's language writes it; whole amounts without decimals ("1 200 kr", "€80"), others with them ("€104.35"). */
export function formatMoney(m: { amount: number; currency: string }, lang: string): string {
  const digits = minorDigits(m.currency);
  const whole = m.amount % 10 ** digits === 0;
  return new Intl.NumberFormat(lang, { style: 'currency', currency: m.currency, minimumFractionDigits: whole ? 0 : digits, maximumFractionDigits: digits }).format(m.amount / 10 ** digits);
}
