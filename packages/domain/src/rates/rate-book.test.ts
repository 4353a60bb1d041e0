import { expect, test } from 'vitest';
import { RateBook } from './rate-book.js';

const book = new RateBook(
  [
    { base: 'EUR', quote: 'SEK', rate: 11.5 },
    { base: 'EUR', quote: 'JPY', rate: 160 },
    { base: 'USD', quote: 'EUR', rate: 0.9 },
  ],
  'SEK',
);

test('direct, inverse and through a common base, as exact ratios', () => {
  expect(book.rate('EUR', 'SEK')).toEqual({ num: 23n, den: 2n });
  expect(book.rate('SEK', 'EUR')).toEqual({ num: 2n, den: 23n });
  expect(book.rate('JPY', 'SEK')).toEqual({ num: 23n, den: 320n }); // via EUR: 11.5 / 160
  expect(book.rate('USD', 'SEK')).toEqual({ num: 207n, den: 20n }); // a chain: USD → EUR → SEK, 0.9 × 11.5
  expect(book.rate('SEK', 'SEK')).toEqual({ num: 1n, den: 1n });
  expect(book.rate('GBP', 'SEK')).toBeUndefined();
});

test('minor units follow each currency (JPY has none) and round half away from zero', () => {
  expect(book.convert(10000, 'EUR', 'SEK')).toBe(115000); // €100.00 → 1150.00 kr
  expect(book.convert(16000, 'JPY', 'EUR')).toBe(10000); // ¥16000 → €100.00
  expect(book.convert(10000, 'EUR', 'JPY')).toBe(16000);
  expect(book.factor('JPY')).toEqual({ num: 115n, den: 16n }); // (11.5 / 160) × 100
  expect(book.convert(1, 'SEK', 'EUR')).toBe(0); // 0.0087 cents
  expect(book.convert(1, 'JPY', 'EUR')).toBe(1); // 0.625 cents
  expect(book.convert(-1, 'JPY', 'EUR')).toBe(-1);
});

test('an exact half converts up (2 990 EUR cents at 10.95 = 32 740.5 öre), in both directions of the quote', () => {
  const eurSek = new RateBook([{ base: 'EUR', quote: 'SEK', rate: '10.95' }], 'SEK');
  expect(eurSek.convert(2990, 'EUR', 'SEK')).toBe(32741);
  expect(eurSek.factor('EUR')).toEqual({ num: 219n, den: 20n });
  const sekEur = new RateBook([{ base: 'SEK', quote: 'EUR', rate: 0.1 }], 'SEK');
  expect(sekEur.convert(5, 'SEK', 'EUR')).toBe(1); // 0.5 cents
  expect(sekEur.convert(2995, 'EUR', 'SEK')).toBe(29950);
});

test('a pair quoted both ways: the newest rate wins, whichever way it was entered', () => {
  const rows = [
    { base: 'EUR', quote: 'SEK', rate: 10.95, date: '2026-11-01' },
    { base: 'SEK', quote: 'EUR', rate: 0.1, date: '2026-11-27' },
  ];
  expect(new RateBook(rows, 'SEK').convert(150000, 'SEK', 'EUR')).toBe(15000); // not 13 699 (1 500 / 10.95)
  expect(new RateBook([...rows].reverse(), 'SEK').convert(150000, 'SEK', 'EUR')).toBe(15000);
  const older = [rows[0]!, { ...rows[1]!, date: '2026-10-01' }];
  expect(new RateBook(older, 'SEK').convert(150000, 'SEK', 'EUR')).toBe(13699);
});
