import { describe, expect, test } from 'vitest';
import { editDistance, tsqueryText, typoBudget, uncovered } from './search-words.js';

describe('typos', () => {
  test('edit distance: a transposition is one edit, like an insertion, deletion or substitution', () => {
    expect(editDistance('chiar', 'chair')).toBe(1);
    expect(editDistance('lmapa', 'lampa')).toBe(1);
    expect(editDistance('sofaa', 'sofa')).toBe(1);
    expect(editDistance('sofa', 'soffa')).toBe(1);
    expect(editDistance('ramchiar', 'armchair')).toBe(2);
    expect(editDistance('kök', 'kok')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
  test('budget: none under 5 letters, 1 for 5–8, 2 from 9 (letters, not bytes)', () => {
    expect([4, 5, 8, 9, 20].map((n) => typoBudget('a'.repeat(n)))).toEqual([0, 1, 1, 2, 2]);
    expect(typoBudget('fåtölj')).toBe(1);
    expect(typoBudget('möbelåäöü')).toBe(2);
  });
  test('tsquery text: every word required, each a prefix, the loose one with its other words', () => {
    const words = [
      { word: 'lampa', known: true, more: ['taklampa', 'golvlampa'], near: [] },
      { word: "o'k", known: true, more: [], near: [] },
    ];
    expect(tsqueryText(words, false)).toBe(`'lampa':* & 'o''k':*`);
    expect(tsqueryText(words, true, 'AB')).toBe(`('lampa':*AB | 'taklampa':*AB | 'golvlampa':*AB) & 'o''k':*AB`);
  });
  test('expansions another one (or the word) already takes in as a prefix are dropped, order kept', () => {
    expect(uncovered('lampa', ['taklampa', 'golvlampa', 'taklampan', 'taklamporna', 'taklampor', 'bordslampa'])).toEqual(['taklampa', 'golvlampa', 'taklampor', 'bordslampa']);
    expect(uncovered('chiar', ['chair', 'chairs', 'chiar', 'chiarx'])).toEqual(['chair']);
    expect(uncovered('stol', ['karmstol', 'karmstol', 'matstol'])).toEqual(['karmstol', 'matstol']);
    expect(uncovered('stol', [])).toEqual([]);
  });
});
