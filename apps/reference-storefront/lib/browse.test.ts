import { describe, expect, test } from 'vitest';
import { highlightParts, pageLinks, readBrowse, searchInput, termParam, withParams } from './browse';

const facets = [
  { kind: 'brand', terms: [{ id: 'b-artek', slug: 'artek' }, { id: 'b-gubi', slug: 'gubi' }] },
  { kind: 'condition', terms: [{ id: 'c-good', slug: 'good' }] },
  { kind: 'sort', terms: [{ id: 's-x', slug: 'x' }] },
];

describe('reading a search URL', () => {
  test('term slugs per kind become term ids; unknown slugs, sorts and currencies are dropped', () => {
    const b = readBrowse({ brand: ['artek', 'nope'], condition: 'good', sort: 'cheapest', currency: 'USD', q: 'stool' }, { currencies: ['SEK', 'EUR'], facets });
    expect(b).toMatchObject({ q: 'stool', sort: undefined, currency: 'SEK', chosen: { brand: ['artek'], condition: ['good'] }, termIds: ['b-artek', 'c-good'] });
  });

  test('prices are typed in major units of the chosen currency, with a comma or a point', () => {
    const b = readBrowse({ min: '1 200,50', max: '3000', currency: 'EUR' }, { currencies: ['SEK', 'EUR'], facets, lang: 'sv' });
    expect([b.min, b.max, b.currency]).toEqual([120050, 300000, 'EUR']);
    expect(readBrowse({ min: 'cheap' }, { currencies: ['SEK'], facets }).min).toBeUndefined();
  });

  test('a price that is not a number is named (min=abc), not silently dropped; a good one and an empty one are not', () => {
    expect(readBrowse({ min: 'abc', max: '300' }, { currencies: ['SEK'], facets }).unreadable).toEqual(['min']);
    expect(readBrowse({ min: '', max: '12,5,0' }, { currencies: ['SEK'], facets, lang: 'sv' }).unreadable).toEqual(['max']);
    expect(readBrowse({ min: '0', max: '1 250,50' }, { currencies: ['SEK'], facets, lang: 'sv' }).unreadable).toEqual([]);
  });

  test('pages: "More" carries the way back, "Previous" pops it; page 2 goes back to the first page', () => {
    const path = '/en/search';
    const on = (params: Record<string, string | string[]>) => pageLinks(path, params, readBrowse(params, { currencies: ['SEK'], facets }), 'NEXT');
    const first = on({ q: 'lamp' });
    expect(first).toEqual({ next: '/en/search?q=lamp&cursor=NEXT&back=', previous: undefined });
    const second = on({ q: 'lamp', cursor: 'C2', back: '' });
    expect(second).toEqual({ next: '/en/search?q=lamp&cursor=NEXT&back=&back=C2', previous: '/en/search?q=lamp' });
    const third = on({ q: 'lamp', cursor: 'C3', back: ['', 'C2'] });
    expect(third.previous).toBe('/en/search?q=lamp&cursor=C2&back=');
    // the last page has no "More"; an old link without the trail still goes back to the first page
    expect(pageLinks(path, { cursor: 'C9' }, readBrowse({ cursor: 'C9' }, { currencies: ['SEK'], facets }), undefined)).toEqual({ next: undefined, previous: '/en/search' });
  });

  test("a kind named like one of our parameters gets a prefix, so it cannot take the sort's place", () => {
    expect(termParam('brand')).toBe('brand');
    expect(termParam('sort')).toBe('term_sort');
    const b = readBrowse({ sort: 'x', term_sort: 'x' }, { currencies: ['SEK'], facets });
    expect([b.sort, b.termIds]).toEqual([undefined, ['s-x']]);
  });

  test('the API input carries only what was asked, the category page adding its category', () => {
    const b = readBrowse({ brand: 'gubi', sort: 'price_asc' }, { currencies: ['SEK'], facets });
    expect(searchInput(b, 'cat-1')).toEqual({ limit: 24, term: ['b-gubi'], attr: [], category: 'cat-1', sort: 'price_asc', currency: 'SEK' });
  });
});

test('a link to the next page keeps the filters, repeated ones included, and replaces the cursor', () => {
  expect(withParams('/en/search', { q: 'lamp', brand: ['artek', 'gubi'], cursor: 'old', empty: '' }, { cursor: 'next' })).toBe('/en/search?q=lamp&brand=artek&brand=gubi&cursor=next');
  expect(withParams('/en/c/chairs', { cursor: 'old' }, {})).toBe('/en/c/chairs');
});

describe('highlightParts', () => {
  test('word beginnings, accents and case ignored; inside words from 4 letters', () => {
    expect(highlightParts('Ekström Möbler lampa', 'ekstrom MOB')).toEqual([
      { text: 'Ekström', match: true },
      { text: ' ', match: false },
      { text: 'Möb', match: true },
      { text: 'ler lampa', match: false },
    ]);
    expect(highlightParts('Taklampa', 'lampa')).toEqual([
      { text: 'Tak', match: false },
      { text: 'lampa', match: true },
    ]);
    expect(highlightParts('Taklampa', 'amp')).toEqual([{ text: 'Taklampa', match: false }]); // 3 letters: beginnings only
    expect(highlightParts('Sofa', undefined)).toEqual([{ text: 'Sofa', match: false }]);
  });
});
