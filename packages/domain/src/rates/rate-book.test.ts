import { expect, test } from 'vitest';
import { RateBook, roundMoney } from './rate-book.js';

const book = new RateBook(
  [
    { base: 'EUR', quote: 'SEK', rate: 11.5 },
    { base: 'EUR', quote: 'JPY', rate: 160 },
    { base: 'USD', quote: 'EUR', rate: 0.9 },
  ],
  'SEK',
);

test('direct, inverse and through a common base', () => {
  expect(book.rate('EUR', 'SEK')).toBe(11.5);
  expect(book.rate('SEK', 'EUR')).toBeCloseTo(1 / 11.5, 12);
  expect(book.rate('JPY', 'SEK')).toBeCloseTo(11.5 / 160, 12); // via EUR
  expect(book.rate('USD', 'SEK')).toBeCloseTo(0.9 * 11.5, 12); // a chain: USD → EUR → SEK
  expect(book.rate('SEK', 'SEK')).toBe(1);
  expect(book.rate('GBP', 'SEK')).toBeUndefined();
});

test('minor units follow each currency (JPY has none) and round half away from zero', () => {
  expect(book.convert(10000, 'EUR', 'SEK')).toBe(115000); // €100.00 → 1150.00 kr
  expect(book.convert(16000, 'JPY', 'EUR')).toBe(10000); // ¥16000 → €100.00
  expect(book.convert(10000, 'EUR', 'JPY')).toBe(16000);
  expect(book.factor('JPY')).toBeCloseTo((11.5 / 160) * 100, 10);
  expect(roundMoney(2.5)).toBe(3);
  expect(roundMoney(-2.5)).toBe(-3);
  expect(book.convert(1, 'SEK', 'EUR')).toBe(0); // 0.0087 cents
});
