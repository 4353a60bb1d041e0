/** Amounts in minor units, as the team reads them (`1 200,00 SEK`: the currency's own decimals). */
export function money(amount: unknown, currency: unknown): string {
  if (typeof amount !== 'number' || typeof currency !== 'string') return '—';
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency, currencyDisplay: 'code' }).format(amount / 10 ** digits);
}

/** An ISO time as `28 Nov 2026, 01:20 UTC` (the team may sit anywhere: one clock). */
export function when(iso: unknown): string {
  if (typeof iso !== 'string') return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(d)} UTC`;
}

/** `pending_approval` → `pending approval`. */
export const words = (code: unknown) => (typeof code === 'string' ? code.replaceAll('_', ' ').replaceAll('-', ' ') : '—');

/** A loosely typed body's field (the API documents listings, orders and conversations as objects). */
export type Body = Record<string, unknown>;
export const str = (b: Body | undefined, key: string) => (b && typeof b[key] === 'string' ? (b[key] as string) : '');

/** The decimals of a currency's minor unit (2 for EUR, 0 for JPY); 2 for a code that is not one. */
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency: /^[A-Z]{3}$/.test(currency) ? currency : 'EUR' }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** An amount typed by a person (`1200`, `1 200,50`, `1200.50`) in minor units of a currency with `digits` decimals; NaN when it is not one. */
export function minorUnits(typed: string, digits: number): number {
  const clean = typed.replace(/[\s\u00a0]/g, '').replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(clean)) return Number.NaN;
  return Math.round(Number(clean) * 10 ** digits);
}
