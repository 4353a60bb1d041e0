/**
 * Money arithmetic, exact: every conversion, percentage and fee of an amount in minor units goes
 * through here. Rates and percentages are read as the decimals they were written as (a number as
 * its shortest decimal, `10.95` not the binary 10.9499…; a `numeric` column as its text), kept as
 * fractions of BigInts, and a result is rounded once, half away from zero — the rule of Postgres'
 * `round(numeric)` and of `hm_round_div` (the SQL side of the same division; docs/decisions.md).
 */

/**
 * The largest amount a payment may have, in minor units: Stripe's documented maximum is 8 digits
 * (99 999 999, e.g. 999 999.99 SEK/EUR/USD; the same 8 digits for zero-decimal currencies such as
 * JPY). Every price and shipping price a seller or the team sets is at most this, and an order
 * whose total would exceed it is refused at the field that made it too large (docs/decisions.md).
 */
export const MAX_AMOUNT = 99_999_999;

/** An exact positive or negative fraction `num / den` (den > 0, lowest terms). */
export interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  a = a < 0n ? -a : a;
  while (b) [a, b] = [b, a % b];
  return a;
};

function ratio(num: bigint, den: bigint): Ratio {
  if (den === 0n) throw new RangeError('division by zero');
  if (den < 0n) [num, den] = [-num, -den];
  const g = gcd(num, den) || 1n;
  return { num: num / g, den: den / g };
}

export const ONE: Ratio = { num: 1n, den: 1n };

/** A decimal — a finite number, or a decimal string such as Postgres prints a `numeric` (`"10.95"`, `"-1e-7"`) — as an exact ratio. */
export function decimal(value: number | string): Ratio {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(String(value).trim());
  if (!m || (m[2] === '' && !m[3])) throw new RangeError(`not a decimal: ${value}`);
  const [, sign, whole, frac = '', exp = '0'] = m;
  const scale = frac.length - Number(exp);
  const digits = BigInt(`${whole}${frac}` || '0') * (sign === '-' ? -1n : 1n);
  return scale >= 0 ? ratio(digits, 10n ** BigInt(scale)) : ratio(digits * 10n ** BigInt(-scale), 1n);
}

export const times = (a: Ratio, b: Ratio): Ratio => ratio(a.num * b.num, a.den * b.den);
export const inverse = (a: Ratio): Ratio => ratio(a.den, a.num);
/** 10^n as a ratio (n may be negative). */
export const powerOfTen = (n: number): Ratio => (n >= 0 ? ratio(10n ** BigInt(n), 1n) : ratio(1n, 10n ** BigInt(-n)));

/** num / den rounded half away from zero (den > 0); the same as SQL `hm_round_div(num, den)`. */
export function roundDiv(num: bigint, den: bigint): bigint {
  const q = (2n * (num < 0n ? -num : num) + den) / (2n * den);
  return num < 0n ? -q : q;
}

/**
 * An integer amount of minor units times an exact ratio, rounded half away from zero. Exact while the
 * result is a safe integer (every amount the API accepts, 10^12, at any real rate); beyond that the
 * nearest number (a search bound of 10^20 still compares).
 */
export function applyRatio(amount: number, r: Ratio): number {
  if (!Number.isInteger(amount)) throw new RangeError(`not an amount in minor units: ${amount}`);
  return Number(roundDiv(BigInt(amount) * r.num, r.den));
}

/** `percent` % of an amount in minor units (2.3 % of 1 500 = 34.5 → 35), rounded half away from zero. */
export function percentOf(amount: number, percent: number | string): number {
  return applyRatio(amount, times(decimal(percent), { num: 1n, den: 100n }));
}

const digitsOf = new Map<string, number>();

/** Minor-unit digits of a currency (SEK 2, JPY 0, BHD 3); read from Intl once per currency and process. */
export function minorDigits(currency: string): number {
  let digits = digitsOf.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    digitsOf.set(currency, digits);
  }
  return digits;
}

/** `12.34 SEK`: an amount in minor units in words for a message. */
export function formatMoney(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  return `${(amount / 10 ** digits).toFixed(digits)} ${currency}`;
}
