import { expect, test } from 'vitest';
import { applyRatio, decimal, inverse, percentOf, roundDiv, times } from './money.js';

test('decimals are read as written, not as their binary neighbours', () => {
  expect(decimal(10.95)).toEqual({ num: 219n, den: 20n });
  expect(decimal('10.9500')).toEqual({ num: 219n, den: 20n }); // a numeric's text
  expect(decimal(0.1)).toEqual({ num: 1n, den: 10n });
  expect(decimal(1e-7)).toEqual({ num: 1n, den: 10_000_000n }); // String(1e-7) is "1e-7"
  expect(decimal('-2.5E+3')).toEqual({ num: -2500n, den: 1n });
  expect(decimal(160)).toEqual({ num: 160n, den: 1n });
  expect(() => decimal(Number.NaN)).toThrow(RangeError);
  expect(() => decimal('1,5')).toThrow(RangeError);
});

test('division rounds half away from zero, both signs, and nothing else', () => {
  expect(roundDiv(5n, 2n)).toBe(3n); // 2.5
  expect(roundDiv(-5n, 2n)).toBe(-3n); // -2.5
  expect(roundDiv(7n, 2n)).toBe(4n); // 3.5 (not to even)
  expect(roundDiv(12n, 5n)).toBe(2n); // 2.4
  expect(roundDiv(13n, 5n)).toBe(3n); // 2.6
  expect(roundDiv(-12n, 5n)).toBe(-2n);
  expect(roundDiv(0n, 7n)).toBe(0n);
  expect(roundDiv(4999n, 10000n)).toBe(0n);
  expect(roundDiv(5000n, 10000n)).toBe(1n);
});

test('conversion at 10.95: the exact half 32 740.5 is 32 741 (binary floating point said 32 740)', () => {
  expect(2990 * 10.95).toBeLessThan(32740.5); // the bug this module exists for
  const r = decimal(10.95);
  expect(applyRatio(2990, r)).toBe(32741);
  expect(applyRatio(-2990, r)).toBe(-32741);
  expect(applyRatio(2989, r)).toBe(32730); // 32 729.55
  // back: 1 500 SEK at 1/10.95 = 136.986… EUR
  expect(applyRatio(1500, inverse(r))).toBe(137);
  expect(applyRatio(219, inverse(times(r, decimal(2))))).toBe(10); // 219 / 21.9 = 10 exactly
});

test('percentages: 2.3 % of 1 500 is 34.5 → 35; halves that floating point misses', () => {
  expect((1500 * 2.3) / 100).toBeLessThan(34.5); // what the voucher rule computed
  expect(percentOf(1500, 2.3)).toBe(35);
  expect(percentOf(1500, '2.3')).toBe(35);
  expect(percentOf(-1500, 2.3)).toBe(-35);
  expect(percentOf(1005, 10)).toBe(101); // 100.5
  expect(percentOf(1004, 10)).toBe(100); // 100.4
  expect(percentOf(1005, 0.7)).toBe(7); // 7.035
  expect(percentOf(1500, 0.7)).toBe(11); // 10.5 (10.499999… in floating point)
  expect(percentOf(1000, 0)).toBe(0);
  expect(percentOf(999, 100)).toBe(999);
  expect(percentOf(1, 50)).toBe(1); // 0.5
  expect(percentOf(1, 49.999)).toBe(0);
});

test('large amounts up to the API limit (10^12 minor units) stay exact', () => {
  const max = 1_000_000_000_000;
  expect(applyRatio(max, decimal(10.95))).toBe(10_950_000_000_000);
  expect(applyRatio(max - 1, decimal(10.95))).toBe(10_949_999_999_989); // …989.05
  expect(applyRatio(max + 5, decimal('0.1'))).toBe(100_000_000_001); // …000.5 → up
  expect(applyRatio(-(max + 5), decimal('0.1'))).toBe(-100_000_000_001);
  expect(percentOf(max, 99.99)).toBe(999_900_000_000);
  expect(percentOf(max - 1_500, 2.3)).toBe(22_999_999_966); // 22 999 999 965.5
  expect(applyRatio(1e20, decimal(10.95))).toBe(1.095e21); // past safe integers: the nearest number, no error
  expect(() => applyRatio(1.5, decimal(1))).toThrow(RangeError);
});
