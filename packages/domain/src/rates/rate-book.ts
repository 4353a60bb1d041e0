import type { EntityManager } from '@hm/db/orm';
import { applyRatio, decimal, inverse, minorDigits, ONE, powerOfTen, times, type Ratio } from '../core/money.js';
import { latestRates } from './rates.queries.js';

/** A stored rate: 1 `base` = `rate` `quote` from `date` (a number, or a `numeric`'s text). */
export interface RateRow {
  base: string;
  quote: string;
  rate: number | string;
  date?: string;
}

/**
 * The day's rates of a marketplace: for every currency pair the latest rate on or before `today`,
 * whichever way it was quoted (EUR→SEK of 1 November gives way to SEK→EUR of today; spec: Listing →
 * display_price). Rates are exact decimals (core/money.ts), so a conversion here and `price_base`
 * in SQL round the same halves the same way.
 */
export class RateBook {
  /** per unordered pair (`A|B`, A < B): the newest row */
  private readonly pairs = new Map<string, { base: string; quote: string; rate: Ratio; date: string }>();
  /** minorRate by `from>to`: the pairs never change after construction, and every displayed price converts */
  private readonly minorRates = new Map<string, Ratio | undefined>();

  constructor(
    rows: RateRow[],
    readonly defaultCurrency: string,
  ) {
    for (const r of rows) {
      const key = [r.base, r.quote].sort().join('|');
      const date = r.date ?? '';
      const held = this.pairs.get(key);
      if (!held || date >= held.date) this.pairs.set(key, { base: r.base, quote: r.quote, rate: decimal(r.rate), date });
    }
  }

  /**
   * Major units of `to` per major unit of `from` as an exact ratio, or undefined when no rates connect
   * them: directly, inversely, or through other currencies (the shortest chain, e.g. USD → EUR → SEK).
   */
  rate(from: string, to: string): Ratio | undefined {
    if (from === to) return ONE;
    const seen = new Map<string, Ratio>([[from, ONE]]);
    let frontier = [from];
    while (frontier.length) {
      const next: string[] = [];
      for (const c of frontier) {
        for (const p of this.pairs.values()) {
          const step = p.base === c ? { to: p.quote, r: p.rate } : p.quote === c ? { to: p.base, r: inverse(p.rate) } : undefined;
          if (!step || seen.has(step.to)) continue;
          seen.set(step.to, times(seen.get(c)!, step.r));
          if (step.to === to) return seen.get(to);
          next.push(step.to);
        }
      }
      frontier = next;
    }
    return undefined;
  }

  /** Minor units of `to` per minor unit of `from`, exact. */
  minorRate(from: string, to: string): Ratio | undefined {
    const key = `${from}>${to}`;
    if (this.minorRates.has(key)) return this.minorRates.get(key);
    const r = this.rate(from, to);
    const minor = r === undefined ? undefined : times(r, powerOfTen(minorDigits(to) - minorDigits(from)));
    this.minorRates.set(key, minor);
    return minor;
  }

  /** Minor units of the default currency per minor unit of `currency` (the reprice job's `price_factors`). */
  factor(currency: string): Ratio | undefined {
    return this.minorRate(currency, this.defaultCurrency);
  }

  /** An amount in minor units of `from` as minor units of `to`, rounded half away from zero. */
  convert(amount: number, from: string, to: string): number | undefined {
    const r = this.minorRate(from, to);
    return r === undefined ? undefined : applyRatio(amount, r);
  }
}

export async function loadRateBook(em: EntityManager, marketplace: { currencies: string[] }, today: string): Promise<RateBook> {
  return new RateBook(await latestRates(em, today), marketplace.currencies[0] ?? '');
}

export const todayOf = (now: Date) => now.toISOString().slice(0, 10);
