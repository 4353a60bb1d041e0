import type { EntityManager } from '@hm/db/orm';
import { latestRates } from './rates.queries.js';

/** Minor-unit digits of a currency (SEK 2, JPY 0, BHD 3). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Rounds half away from zero (money rule). */
export const roundMoney = (x: number) => Math.sign(x) * Math.round(Math.abs(x));

/**
 * The day's rates of a marketplace: for every pair the latest rate on or before `today` (spec:
 * Listing → display_price).
 */
export class RateBook {
  private readonly rates = new Map<string, number>();

  constructor(
    rows: { base: string; quote: string; rate: number }[],
    readonly defaultCurrency: string,
  ) {
    for (const r of rows) this.rates.set(`${r.base}>${r.quote}`, Number(r.rate));
  }

  /**
   * Major units of `to` per major unit of `from`, or undefined when no rates connect them: directly,
   * inversely, or through other currencies (the shortest chain of rates, e.g. USD → EUR → SEK).
   */
  rate(from: string, to: string): number | undefined {
    if (from === to) return 1;
    const seen = new Map<string, number>([[from, 1]]);
    let frontier = [from];
    while (frontier.length) {
      const next: string[] = [];
      for (const c of frontier) {
        for (const [key, r] of this.rates) {
          const [base, quote] = key.split('>') as [string, string];
          const step = base === c ? { to: quote, r } : quote === c ? { to: base, r: 1 / r } : undefined;
          if (!step || seen.has(step.to)) continue;
          seen.set(step.to, seen.get(c)! * step.r);
          if (step.to === to) return seen.get(to);
          next.push(step.to);
        }
      }
      frontier = next;
    }
    return undefined;
  }

  /** Minor units of the default currency per minor unit of `currency`. */
  factor(currency: string): number | undefined {
    const r = this.rate(currency, this.defaultCurrency);
    return r === undefined ? undefined : r * 10 ** (minorDigits(this.defaultCurrency) - minorDigits(currency));
  }

  /** An amount in minor units of `from` as minor units of `to`, rounded half away from zero. */
  convert(amount: number, from: string, to: string): number | undefined {
    const r = this.rate(from, to);
    return r === undefined ? undefined : roundMoney(amount * r * 10 ** (minorDigits(to) - minorDigits(from)));
  }
}

export async function loadRateBook(em: EntityManager, marketplace: { currencies: string[] }, today: string): Promise<RateBook> {
  return new RateBook(await latestRates(em, today), marketplace.currencies[0] ?? '');
}

export const todayOf = (now: Date) => now.toISOString().slice(0, 10);
