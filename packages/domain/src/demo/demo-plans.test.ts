import { expect, test } from 'vitest';
import { ZListingInput } from '../listings/index.js';
import { DEMO_CATEGORIES, DEMO_TERMS } from './data/catalogue.js';
import { DEMO_SELLERS } from './data/people.js';
import { DEFAULT_DEMO_LISTINGS, MAX_DEMO_LISTINGS, demoListingPlans } from './demo-plans.js';

const plans = demoListingPlans();

test('the same plans every time, and a shorter demo is the start of the full one', () => {
  expect(JSON.stringify(demoListingPlans())).toBe(JSON.stringify(plans));
  expect(JSON.stringify(demoListingPlans(12))).toBe(JSON.stringify(plans.slice(0, 12)));
  expect(plans).toHaveLength(DEFAULT_DEMO_LISTINGS);
  expect(demoListingPlans(MAX_DEMO_LISTINGS)).toHaveLength(MAX_DEMO_LISTINGS);
  expect(() => demoListingPlans(MAX_DEMO_LISTINGS + 1)).toThrow(RangeError);
});

test('every listing is found again by seller and title: no two share both', () => {
  const keys = plans.map((p) => `${p.seller.key}:${p.content.title}`);
  expect(new Set(keys).size).toBe(plans.length);
  const all = demoListingPlans(MAX_DEMO_LISTINGS).map((p) => `${p.seller.key}:${p.content.title}`);
  expect(new Set(all).size).toBe(MAX_DEMO_LISTINGS);
});

test('every category, both currencies, both languages, every seller; even the first dozen covers every category and currency', () => {
  const categories = DEMO_CATEGORIES.map((c) => c.slug).sort();
  expect([...new Set(plans.map((p) => p.category))].sort()).toEqual(categories);
  expect([...new Set(demoListingPlans(12).map((p) => p.category))].sort()).toEqual(categories);
  expect(new Set(demoListingPlans(12).map((p) => p.content.price.currency))).toEqual(new Set(['SEK', 'EUR']));
  expect(new Set(plans.map((p) => p.content.locale))).toEqual(new Set(['en', 'sv']));
  expect(new Set(plans.map((p) => p.seller.key))).toEqual(new Set(DEMO_SELLERS.map((s) => s.key)));
  expect(plans.filter((p) => p.seller.key === 'seller').length).toBeGreaterThanOrEqual(15);
});

test('terms name the demo catalogue; content passes the API input schema; schedules fall; photos 1 to 4', () => {
  const terms = new Set(DEMO_TERMS.map((t) => `${t.kind}:${t.slug}`));
  for (const p of plans) {
    expect(terms.has(`brand:${p.terms.brand}`), p.content.title).toBe(true);
    expect(terms.has(`condition:${p.terms.condition}`), p.content.title).toBe(true);
    const parsed = ZListingInput.safeParse(p.content);
    expect(parsed.success, `${p.content.title}: ${parsed.error?.message}`).toBe(true);
    const steps = p.content.price_schedule ?? [];
    steps.forEach((s, i) => expect(s.amount, p.content.title).toBeLessThan(i === 0 ? p.content.price.amount : steps[i - 1]!.amount));
    expect(p.photos.count).toBeGreaterThanOrEqual(1);
    expect(p.photos.count).toBeLessThanOrEqual(4);
    if (p.content.delivery?.shipping) expect(p.shippingSize).toMatch(/^(small|large)$/);
    if (p.stored) expect(p.seller.nearShowroom).toBe(true);
  }
  // a Swedish seller writes in Swedish
  expect(plans.find((p) => p.content.locale === 'sv')!.content.description).toMatch(/Mått: B \d+ × D \d+ × H \d+ cm\./);
  expect(plans.filter((p) => p.content.price_schedule).length).toBeGreaterThanOrEqual(10);
  expect(plans.filter((p) => p.stored).length).toBeGreaterThanOrEqual(8);
  expect(plans.filter((p) => p.favouritedBy.includes('buyer')).length).toBeGreaterThanOrEqual(8);
});
