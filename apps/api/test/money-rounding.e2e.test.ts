import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeMarketplace, signUp, startHarness, type Harness } from './harness.js';

/**
 * Exact halves (issue 31): a price converted, a search filter, a quote and a placed order agree to
 * the minor unit, rounding half away from zero as `price_base` in SQL does; the newest rate of a
 * pair wins whichever way it was quoted, in the app and in SQL.
 */
let h: Harness;
let key: string;
let seller: string;
let buyer: string;
const TODAY = '2026-11-22'; // the harness clock's day

type Method = 'GET' | 'POST';
const call = (method: Method, url: string, session?: string, payload?: object) => h.request({ method, url, key, ...(session ? { session } : {}), ...(payload ? { payload } : {}) });

async function onSale(title: string, price: { amount: number; currency: string }) {
  const created = await call('POST', '/v1/me/listings', seller, { title, description: 'Oak.', location: { country: 'SE', city: 'Stockholm' }, delivery: { pickup: true }, price, stock: 5 });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  expect((await call('POST', `/v1/me/listings/${id}/publish`, seller, {})).json().status).toBe('published');
  return id;
}
const found = async (query: string) => {
  const res = await call('GET', `/v1/listings?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { title: string }[]).map((i) => i.title).sort();
};
const displayed = async (id: string, currency: string) => {
  const res = await call('GET', `/v1/listings/${id}?currency=${currency}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().display_price.amount as number;
};
const pickup = (listing_id: string, extra: Record<string, unknown> = {}) => ({ listing_id, delivery: { method: 'pickup' }, ...extra });

beforeAll(async () => {
  h = await startHarness();
  key = (await makeMarketplace(h, 'money', { currencies: ['SEK', 'EUR'] })).secret;
  await h.console.marketplace.update({
    marketplace: 'money',
    settings: { listings: { min_images: 0, require_approval: false, require_category: false, required_terms: [], valuations: false }, abuse_limits: { pending_orders_per_buyer: 100 } },
  });
  // 2 990 EUR cents × 10.95 = 32 740.5 öre exactly (2990 × 10.95 is 32 740.499… in binary floating point)
  await h.console.rates.set({ marketplace: 'money', date: '2026-11-01', base: 'EUR', rates: { SEK: 10.95 } });
  await h.runJobs();
  seller = (await signUp(h, key, { email: 'seller@example.com' })).token;
  buyer = (await signUp(h, key, { email: 'buyer@example.com' })).token;
});
afterAll(() => h.close());

describe('an exact half converts up, the same everywhere', () => {
  test('display price, search filters in both currencies, quote and order', async () => {
    const chair = await onSale('Chair', { amount: 2990, currency: 'EUR' });
    await onSale('Below', { amount: 32740, currency: 'SEK' });
    await onSale('Above', { amount: 32742, currency: 'SEK' });
    expect(await displayed(chair, 'SEK')).toBe(32741);
    expect(await displayed(chair, 'EUR')).toBe(2990);

    // filters in the default currency find what is displayed at or within the bound, and only that
    expect(await found('currency=SEK&max_price=32741')).toEqual(['Below', 'Chair']);
    expect(await found('currency=SEK&max_price=32740')).toEqual(['Below']);
    expect(await found('currency=SEK&min_price=32741')).toEqual(['Above', 'Chair']);
    expect(await found('currency=SEK&min_price=32742')).toEqual(['Above']);
    expect(await found('max_price=32741')).toEqual(['Below', 'Chair']);
    // a filter in the listing's own currency finds it at exactly its price
    expect(await found('currency=EUR&max_price=2990')).toContain('Chair');
    expect(await found('currency=EUR&max_price=2989')).not.toContain('Chair');
    expect(await found('currency=EUR&min_price=2990')).toContain('Chair');
    // the largest bound the API takes, in either currency, is a bound, not an error
    expect(await found(`currency=EUR&max_price=${Number.MAX_SAFE_INTEGER}`)).toEqual(['Above', 'Below', 'Chair']);
    expect(await found(`currency=SEK&min_price=${Number.MAX_SAFE_INTEGER}`)).toEqual([]);
    // the search page shows the same amount as the listing page
    const page = (await call('GET', '/v1/listings?currency=SEK&sort=price_asc')).json().items as { title: string; display_price: { amount: number } }[];
    expect(page.map((i) => [i.title, i.display_price.amount])).toEqual([
      ['Below', 32740],
      ['Chair', 32741],
      ['Above', 32742],
    ]);

    const quote = await call('POST', '/v1/me/orders/quote', buyer, pickup(chair, { currency: 'SEK' }));
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json().line_items).toEqual([expect.objectContaining({ code: 'item', unit_price: 32741, amount: 32741 })]);
    expect(quote.json().total).toBe(32741);
    const placed = await call('POST', '/v1/me/orders', buyer, pickup(chair, { currency: 'SEK' }));
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json().order).toMatchObject({ currency: 'SEK', total: 32741, line_items: quote.json().line_items });
  });

  test('a filter in another currency compares the price as displayed in that currency', async () => {
    const down = await onSale('Rounds down', { amount: 32745, currency: 'SEK' }); // 2 990.41 EUR cents
    const up = await onSale('Rounds up', { amount: 32746, currency: 'SEK' }); // 2 990.502… EUR cents
    expect(await displayed(down, 'EUR')).toBe(2990);
    expect(await displayed(up, 'EUR')).toBe(2991);
    const atMost2990 = await found('currency=EUR&max_price=2990');
    expect(atMost2990).toEqual(expect.arrayContaining(['Chair', 'Rounds down']));
    expect(atMost2990).not.toContain('Rounds up');
    expect(await found('currency=EUR&min_price=2991')).toEqual(expect.arrayContaining(['Rounds up']));
    expect(await found('currency=EUR&min_price=2991')).not.toContain('Rounds down');
    expect(await found('currency=EUR&min_price=2990&max_price=2990')).toEqual(['Above', 'Below', 'Chair', 'Rounds down']); // 2 990.1, 2 989.95, 2 990, 2 990.41
    // every listing shown at most 29.90 EUR on the search page is found, and none above it
    const page = (await call('GET', '/v1/listings?currency=EUR&sort=price_asc&limit=50')).json().items as { title: string; display_price: { amount: number } }[];
    expect(page.filter((i) => i.display_price.amount <= 2990).map((i) => i.title).sort()).toEqual(atMost2990);
  });

  test('vouchers: 2.3 % of 1 500 is 34.5 → 35 off; a fixed 29.90 EUR is 327.41 SEK off', async () => {
    await h.console.vouchers.create({ marketplace: 'money', voucher: { code: 'PCT23', percent: 2.3 } as never });
    await h.console.vouchers.create({ marketplace: 'money', voucher: { code: 'EUR2990', amount: 2990, currency: 'EUR' } as never });
    await h.console.vouchers.create({ marketplace: 'money', voucher: { code: 'MIN2990', percent: 1, min_total: 2990, currency: 'EUR' } as never });
    const cheap = await onSale('Cup', { amount: 1500, currency: 'SEK' });
    const dear = await onSale('Table', { amount: 100000, currency: 'SEK' });
    const atMin = await onSale('At min', { amount: 32741, currency: 'SEK' });
    const belowMin = await onSale('Below min', { amount: 32740, currency: 'SEK' });

    for (const [listing, code, off] of [
      [cheap, 'PCT23', -35],
      [dear, 'EUR2990', -32741],
      [atMin, 'MIN2990', -327], // 327.41
    ] as const) {
      const quote = await call('POST', '/v1/me/orders/quote', buyer, pickup(listing, { voucher_code: code }));
      expect(quote.statusCode, quote.body).toBe(200);
      expect(quote.json().line_items[1]).toMatchObject({ code: 'voucher', amount: off });
      const placed = await call('POST', '/v1/me/orders', buyer, pickup(listing, { voucher_code: code }));
      expect(placed.statusCode, placed.body).toBe(201);
      expect(placed.json().order).toMatchObject({ total: quote.json().total, line_items: quote.json().line_items });
    }
    // min_total 29.90 EUR is 327.41 SEK: 327.40 is below it
    const refused = await call('POST', '/v1/me/orders/quote', buyer, pickup(belowMin, { voucher_code: 'MIN2990' }));
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().errors[0]).toMatchObject({ location: 'body.voucher_code', message: 'This voucher needs items worth at least 327.41 SEK.' });
  });
});

describe('the newest rate of a pair wins, whichever way it was quoted', () => {
  test('SEK→EUR 0.1 of today replaces EUR→SEK 10.95 of 1 November in display prices and in price_base', async () => {
    const bench = await onSale('Bench', { amount: 150000, currency: 'SEK' });
    const stool = await onSale('Stool', { amount: 2990, currency: 'EUR' });
    expect(await displayed(bench, 'EUR')).toBe(13699); // 1 500 / 10.95
    await h.console.rates.set({ marketplace: 'money', date: TODAY, base: 'SEK', rates: { EUR: 0.1 } });
    await h.runJobs(); // the reprice job
    expect(await displayed(bench, 'EUR')).toBe(15000);
    expect(await displayed(stool, 'SEK')).toBe(29900);
    // price_base (SQL) follows the same rate: 29.90 EUR is 299.00 SEK now
    expect(await found('max_price=29900')).toContain('Stool');
    expect(await found('max_price=29899')).not.toContain('Stool');
    expect(await found('currency=EUR&max_price=2990')).toContain('Stool');
    expect(await found('currency=EUR&max_price=2989')).not.toContain('Stool');
    // a listing priced after the change gets the new rate from the trigger too
    await onSale('Shelf', { amount: 2990, currency: 'EUR' });
    expect(await found('currency=SEK&min_price=29900&max_price=29900')).toEqual(['Chair', 'Shelf', 'Stool']);

    // the same day quoted again the first way replaces the day's rate of the pair
    await h.console.rates.set({ marketplace: 'money', date: TODAY, base: 'EUR', rates: { SEK: 10.95 } });
    await h.runJobs();
    expect(await displayed(bench, 'EUR')).toBe(13699);
    expect(await found('currency=SEK&min_price=32741&max_price=32741')).toEqual(['At min', 'Chair', 'Shelf', 'Stool']); // At min: 327.41 SEK itself
  });
});
