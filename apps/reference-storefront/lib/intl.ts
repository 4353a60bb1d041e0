/** A language, region or currency name for display, or the code itself when Intl does not know it. */
export function displayName(locale: string, type: Intl.DisplayNamesType, code: string): string {
  try {
    return new Intl.DisplayNames([locale], { type, fallback: 'code' }).of(code) ?? code;
  } catch {
    // RangeError for a malformed tag: the code is still better than a crashed page.
    return code;
  }
}

/** A date (RFC 3339 from the API) as the page's language writes it. */
export function formatDate(iso: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(new Date(iso));
}

/** A date and time (RFC 3339 from the API), short, as the page's language writes it. */
export function formatDateTime(iso: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export function formatNumber(n: number, lang: string): string {
  return new Intl.NumberFormat(lang).format(n);
}

/** "1 listing", "1 234 listings": the number formatted for the locale, the word by its plural rules. */
export function countOf(locale: string, n: number, forms: { one: string; other: string }): string {
  let rule: Intl.LDMLPluralRule = n === 1 ? 'one' : 'other';
  let shown = String(n);
  try {
    rule = new Intl.PluralRules(locale).select(n);
    shown = new Intl.NumberFormat(locale).format(n);
  } catch {
    // a malformed tag: plain digits and English rules
  }
  return (rule === 'one' ? forms.one : forms.other).replace('{n}', shown);
}
