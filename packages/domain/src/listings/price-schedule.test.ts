import { describe, expect, test } from 'vitest';
import { leavesScheduleBehind, stepsNotBelowPrice } from './price-schedule.js';

describe('stepsNotBelowPrice: every step below the price it follows', () => {
  test('a step equal to the price is refused, one below is accepted', () => {
    expect(stepsNotBelowPrice(10000, [{ amount: 10000 }], 'price_schedule')).toEqual([
      { location: 'price_schedule.0.amount', message: 'Must be below the price it follows (10000): a scheduled drop never raises the price.', value: 10000 },
    ]);
    expect(stepsNotBelowPrice(10000, [{ amount: 9999 }], 'price_schedule')).toEqual([]);
    expect(stepsNotBelowPrice(1, [{ amount: 1 }], 'schedule').map((e) => e.location)).toEqual(['schedule.0.amount']);
  });

  test('every step at or above the price is listed at once, at its own amount', () => {
    const errors = stepsNotBelowPrice(7000, [{ amount: 9000 }, { amount: 7000 }, { amount: 6999 }], 'price_schedule');
    expect(errors.map((e) => [e.location, e.value])).toEqual([
      ['price_schedule.0.amount', 9000],
      ['price_schedule.1.amount', 7000],
    ]);
  });

  test('no price (a draft, a valuation) or no steps: nothing to check', () => {
    expect(stepsNotBelowPrice(undefined, [{ amount: 20000 }], 'price_schedule')).toEqual([]);
    expect(stepsNotBelowPrice(null, [{ amount: 20000 }], 'price_schedule')).toEqual([]);
    expect(stepsNotBelowPrice(10000, undefined, 'price_schedule')).toEqual([]);
    expect(stepsNotBelowPrice(10000, [], 'price_schedule')).toEqual([]);
  });
});

describe('leavesScheduleBehind: a schedule belongs to its price currency', () => {
  test('a price in another currency leaves it behind; the same currency, no price, or no price before keep it', () => {
    expect(leavesScheduleBehind({ priceCurrency: 'SEK' }, 'EUR')).toBe(true);
    expect(leavesScheduleBehind({ priceCurrency: 'SEK' }, 'SEK')).toBe(false);
    expect(leavesScheduleBehind({ priceCurrency: 'SEK' }, undefined)).toBe(false);
    expect(leavesScheduleBehind({ priceCurrency: null }, 'EUR')).toBe(false);
  });
});
