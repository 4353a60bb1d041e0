/** Money in the storefront: the API speaks minor units; people type and read major units. */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** "2 500,50" or "2500.5" → 250050 (SEK); undefined for an empty or unreadable amount. */
export function toMinor(input: string, currency: string): number | undefined {
  const cleaned = input.replace(/\s/g, '').replace(',', '.');
  if (cleaned === '' || !/^\d+(\.\d+)?$/.test(cleaned)) return undefined;
  return Math.round(Number(cleaned) * 10 ** minorDigits(currency));
}

export function toMajor(minor: number, currency: string): string {
  return (minor / 10 ** minorDigits(currency)).toString();
}

export function formatMoney(m: { amount: number; currency: string }, lang: string): string {
  return new Intl.NumberFormat(lang, { style: 'currency', currency: m.currency }).format(m.amount / 10 ** minorDigits(m.currency));
}
