import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeSellingMarketplace, signUp, startHarness, type Harness } from './harness.js';

/**
 * Search a shopper trusts (issue 28): compound words (infix), typos, did_you_mean and facet counts,
 * each checked against what the API itself answers for the same query narrowed by hand.
 */
let h: Harness;
let m: Awaited<ReturnType<typeof makeSellingMarketplace>>;
let seller: string;

type Page = {
  items: { id: string; title: string }[];
  total: number;
  did_you_mean?: string;
  facets?: {
    categories?: { id: string; slug: string; count: number }[];
    terms?: Record<string, { id: string; slug: string; count: number }[]>;
    price?: { from?: number; to?: number; count: number }[];
  };
  facets_are_estimates?: true;
};
async function search(query: string): Promise<Page> {
  const res = await h.request({ method: 'GET', url: `/v1/listings?limit=100&${query}`, key: m.secret });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
}
const titles = async (query: string) => (await search(query)).items.map((i) => i.title);

async function onSale(content: Record<string, unknown>) {
  h.clock.advance(1000);
  const created = await h.request({ method: 'POST', url: '/v1/me/listings', key: m.secret, session: seller, payload: { location: { country: 'SE' }, delivery: { pickup: true }, price: { amount: 10000, currency: 'SEK' }, ...content } });
  expect(created.statusCode, created.body).toBe(201);
  const pub = await h.request({ method: 'POST', url: `/v1/me/listings/${created.json().id}/publish`, key: m.secret, session: seller, payload: {} });
  expect(pub.json().status, pub.body).toBe('published');
}

beforeAll(async () => {
  h = await startHarness();
  m = await makeSellingMarketplace(h, 'words', { min_images: 0 });
  await h.console.rates.set({ marketplace: 'words', date: '2026-11-21', base: 'EUR', rates: { SEK: 11.5 } });
  await h.runJobs();
  seller = (await signUp(h, m.secret, { email: 'seller@example.com' })).token;
  // oldest first: within a tier, newest first
  await onSale({ title: 'Stol med ryggstöd', description: 'Följer med en golvlampa.', category_id: m.category.chairs, price: { amount: 40000, currency: 'SEK' } });
  await onSale({ title: 'Bord i ek', description: 'Plats för en lampa.', category_id: m.category.tables, terms: { brand: m.brand.artek }, price: { amount: 250000, currency: 'SEK' } });
  await onSale({ title: 'Golvlampa mässing', category_id: m.category.lighting, terms: { brand: m.brand.ekstrom, color: m.color.red }, price: { amount: 90000, currency: 'SEK' } });
  await onSale({ title: 'Taklampa vit', category_id: m.category.lighting, terms: { brand: m.brand.artek }, price: { amount: 5000, currency: 'EUR' } });
  await onSale({ title: 'Lampa av glas', category_id: m.category.lighting, terms: { brand: m.brand.artek, color: m.color.red }, price: { amount: 12000, currency: 'SEK' } });
  await onSale({ title: 'Chair in oak', category_id: m.category.chairs, terms: { brand: m.brand.eames }, price: { amount: 150000, currency: 'SEK' } });
  await onSale({ title: 'Bench', description: 'Sold as a chiar by mistake.', category_id: m.category.furniture, price: { amount: 30000, currency: 'SEK' } });
  await onSale({ title: 'Stool', description: 'Goes with any chair.', category_id: m.category.chairs, terms: { color: m.color.red }, price: { amount: 20000, currency: 'SEK' } });
  await onSale({ title: 'Sideboard in teak', category_id: m.category.furniture, price: { amount: 8000, currency: 'EUR' } });
  await onSale({ title: 'Sofa', category_id: m.category.furniture, price: { amount: 500000, currency: 'SEK' } });
  await onSale({ title: 'Armchair', category_id: m.category.chairs, price: { amount: 70000, currency: 'SEK' } });
}, 120_000);
afterAll(() => h?.close());

describe('compound words (infix)', () => {
  test('lampa: the word itself first, then inside longer title words, then descriptions the same way', async () => {
    expect(await titles('q=lampa')).toEqual(['Lampa av glas', 'Taklampa vit', 'Golvlampa mässing', 'Bord i ek', 'Stol med ryggstöd']);
    expect((await search('q=lampa')).total).toBe(5);
  });
  test('accents and case as today: LAMPA and lámpa are lampa', async () => {
    expect(await titles('q=LAMPA')).toEqual(await titles('q=lampa'));
    expect(await titles('q=l%C3%A1mpa')).toEqual(await titles('q=lampa'));
  });
  test('3-letter words match only word beginnings', async () => {
    // "amp" is inside lampa, but too short to match inside words
    expect(await titles('q=amp')).toEqual([]);
    expect(await titles('q=lamp')).toEqual(['Lampa av glas', 'Taklampa vit', 'Golvlampa mässing', 'Bord i ek', 'Stol med ryggstöd']);
  });
  test('every word still required', async () => {
    expect(await titles('q=lampa%20vit')).toEqual(['Taklampa vit']);
  });
});

describe('the vocabulary', () => {
  test('listings bringing the same new words at once, in any order: every one saved, each word once', async () => {
    const words = ['xylofon', 'qvarnsten', 'wurlitzer', 'zebrano'];
    const names = Array.from({ length: 12 }, (_v, i) => [...words.slice(i % 4), ...words.slice(0, i % 4)].reverse().join(' '));
    const created = await Promise.all(names.map((title) => h.request({ method: 'POST', url: '/v1/me/listings', key: m.secret, session: seller, payload: { title } })));
    expect(created.map((r) => r.statusCode)).toEqual(names.map(() => 201));
    // drafts: not found, but their words are known (no typo matching for them, and they may be suggested once on sale)
    expect(await titles('q=xylofon')).toEqual([]);
    expect(await titles('q=xylofn')).toEqual([]);
  });
});

describe('typos', () => {
  test('chiar (5 letters, a transposition) finds chair titles, below the exact word in the same tier', async () => {
    // Chair in oak: title by typo (5); Bench: "chiar" in its description, exact (2); Stool: "chair" in its description by typo (1)
    expect(await titles('q=chiar')).toEqual(['Chair in oak', 'Bench', 'Stool']);
  });
  test('lmapa and sofaa: one edit from a vocabulary word', async () => {
    expect(await titles('q=lmapa')).toEqual(expect.arrayContaining(['Lampa av glas']));
    expect(await titles('q=sofaa')).toEqual(['Sofa']);
  });
  test('5–8 letters one edit, 9+ two', async () => {
    expect(await titles('q=armchiar')).toEqual(['Armchair']); // 8 letters, one edit
    expect(await titles('q=ramchiar')).toEqual([]); // 8 letters, two edits
    expect(await titles('q=sydebaord')).toEqual(['Sideboard in teak']); // 9 letters, two edits
    expect(await titles('q=sydebaorf')).toEqual([]); // three
  });
  test('under 5 letters no typos', async () => {
    expect(await titles('q=sofx')).toEqual([]);
  });
  test('a word the vocabulary knows as a prefix is not tried for typos', async () => {
    // "chai" starts "chair": its prefix and infix matches (armchair), no typo candidates
    expect(await titles('q=chai')).toEqual(['Chair in oak', 'Armchair', 'Stool']);
    // "bench" is known: "Bench" only, not the one-edit "beach" or anything a typo away
    expect(await titles('q=bench')).toEqual(['Bench']);
  });
});

describe('did_you_mean', () => {
  test('nothing found: the closest query that finds something', async () => {
    const page = await search('q=sofx');
    expect(page).toMatchObject({ items: [], total: 0, did_you_mean: 'sofa' });
    expect((await search(`q=${page.did_you_mean}`)).total).toBe(1);
    expect((await search('q=taklampa%20vix')).did_you_mean).toBe('taklampa vit'); // 3 letters: no typo matching, but a suggestion
  });
  test('only a suggestion that finds something with the same filters', async () => {
    // sofa is in the furniture category, not lighting
    expect((await search(`q=sofx&category=${m.category.lighting}`)).did_you_mean).toBeUndefined();
    expect((await search(`q=sofx&category=${m.category.furniture}`)).did_you_mean).toBe('sofa');
  });
  test('no suggestion when something matches or nothing is near', async () => {
    expect((await search('q=sofa')).did_you_mean).toBeUndefined();
    expect((await search('q=qqqqqq')).did_you_mean).toBeUndefined();
  });
});

describe('facets', () => {
  const FACETS = 'facets=category,term:brand,term:color,price';
  /** Each facet count equals the total of the query with that choice in place of the facet's own filter. */
  async function checkCounts(query: string, drop: { category?: boolean; kind?: string; price?: boolean } = {}) {
    const page = await search(`${query}&${FACETS}`);
    expect(page.facets_are_estimates).toBeUndefined();
    const params = new URLSearchParams(query);
    const without = (names: string[], ids: string[] = []) => {
      const p = new URLSearchParams();
      for (const [k, v] of params) if (!names.includes(k) && !ids.includes(v)) p.append(k, v);
      return p;
    };
    const total = async (p: URLSearchParams) => (await search(p.toString())).total;
    for (const c of page.facets!.categories!) {
      const p = without(['category']);
      p.set('category', c.id);
      expect(c.count, `category ${c.slug}`).toBe(await total(p));
    }
    for (const [kind, terms] of Object.entries(page.facets!.terms!)) {
      const ofKind = terms.map((t) => t.id);
      const all = Object.values(m[kind as 'brand' | 'color']);
      for (const t of terms) {
        const p = without([], [...all, ...ofKind]);
        p.append('term', t.id);
        expect(t.count, `${kind} ${t.slug}`).toBe(await total(p));
        expect(t.count).toBeGreaterThan(0);
      }
    }
    for (const b of page.facets!.price!) {
      const p = without(['min_price', 'max_price']);
      if (b.from !== undefined) p.set('min_price', String(b.from));
      if (b.to !== undefined) p.set('max_price', String(b.to - 1));
      expect(b.count, `price ${b.from}–${b.to}`).toBe(await total(p));
    }
    void drop;
    return page;
  }

  test('no filters: counts of every choice, subtrees included; zero choices left out', async () => {
    const page = await checkCounts('sort=newest');
    expect(page.facets!.categories!.find((c) => c.slug === 'furniture')!.count).toBe(8); // its own 3 + chairs 4 + tables 1
    expect(page.facets!.terms!.brand!.map((b) => b.slug).sort()).toEqual(['artek', 'eames', 'ekstrom']); // no ecole, zanotta
    expect(page.facets!.price!.reduce((a, b) => a + b.count, 0)).toBe(page.total);
    expect(page.facets!.price![0]!.from).toBeUndefined();
    expect(page.facets!.price!.at(-1)!.to).toBeUndefined();
  });
  test('disjunctive: a brand chosen still counts the other brands; other kinds are narrowed', async () => {
    const page = await checkCounts(`term=${m.brand.artek}`);
    expect(page.total).toBe(3);
    expect(page.facets!.terms!.brand!.find((b) => b.slug === 'ekstrom')!.count).toBe(1);
    expect(page.facets!.terms!.color).toEqual([{ id: m.color.red, slug: 'red', count: 1 }]);
  });
  test('with words, a category, a price range and a currency', async () => {
    await checkCounts('q=lampa');
    await checkCounts(`q=lampa&category=${m.category.lighting}&min_price=10000&max_price=100000`);
    await checkCounts(`category=${m.category.furniture}&term=${m.color.red}&currency=EUR&min_price=1000`);
  });
  test('without facets nothing is added; an unknown facet is a problem at facets', async () => {
    const page = await search('q=lampa');
    expect(page.facets).toBeUndefined();
    const res = await h.request({ method: 'GET', url: '/v1/listings?facets=category,term:size,colour', key: m.secret });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.filter((e: { location: string }) => e.location === 'query.facets')).toHaveLength(2);
  });
});
