import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeSellingMarketplace, signUp, startHarness, type Harness } from './harness.js';

/**
 * The `category` filter of search reads each listing's `category_path` (its category and every one
 * above it, kept by triggers): the paths stay right when a listing's category changes, when a category
 * moves under another parent (its subtree with it), when a category is deleted, and when a listing is
 * saved while its category moves. Every search by category and every category facet count is checked
 * against the subtree walked in SQL from `parent_id` (not from the path).
 */
let h: Harness;
let m: Awaited<ReturnType<typeof makeSellingMarketplace>>;
let seller: string;
let db: pg.Client;
const listing: Record<string, string> = {};

async function onSale(name: string, category: string | undefined) {
  h.clock.advance(1000);
  const created = await h.request({ method: 'POST', url: '/v1/me/listings', key: m.secret, session: seller, payload: { title: `Listing ${name}`, location: { country: 'SE' }, delivery: { pickup: true }, price: { amount: 10000, currency: 'SEK' }, ...(category ? { category_id: category } : {}) } });
  expect(created.statusCode, created.body).toBe(201);
  const pub = await h.request({ method: 'POST', url: `/v1/me/listings/${created.json().id}/publish`, key: m.secret, session: seller, payload: {} });
  expect(pub.json().status, pub.body).toBe('published');
  listing[name] = created.json().id;
}

async function search(query: string) {
  const res = await h.request({ method: 'GET', url: `/v1/listings?limit=100&${query}`, key: m.secret });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: { id: string; title: string }[]; total: number; facets?: { categories: { id: string; slug: string; count: number }[] } };
}

/** The listings on sale in a category's subtree, walked from parent_id in SQL. */
async function inSubtree(category: string): Promise<string[]> {
  const { rows } = await db.query(
    `with recursive sub as (select id from categories where id = $2 union all select c.id from categories c join sub on c.parent_id = sub.id)
     select l.title from listings l where l.marketplace_id = $1 and l.on_sale and l.category_id in (select id from sub) order by l.title`,
    [m.marketplace.id, category],
  );
  return rows.map((r) => r.title as string);
}

/** Every category: search by it, its count in the category facet (of an unfiltered query) and the SQL subtree agree; every path is its category's ancestors. */
async function expectConsistent() {
  const { rows: categories } = await db.query<{ id: string; slug: string }>(`select id, slug from categories where marketplace_id = $1`, [m.marketplace.id]);
  const facets = (await search('facets=category')).facets!.categories;
  for (const c of categories) {
    const expected = await inSubtree(c.id);
    const found = await search(`category=${c.id}`);
    expect(found.items.map((i) => i.title).sort(), c.slug).toEqual(expected);
    expect(found.total, c.slug).toBe(expected.length);
    // with a price range the category is found through the listings' search keys, kept with the path
    const priced = await search(`category=${c.id}&min_price=10000&max_price=10000`);
    expect(priced.items.map((i) => i.title).sort(), `${c.slug} priced`).toEqual(expected);
    expect(facets.find((f) => f.id === c.id)?.count ?? 0, `facet ${c.slug}`).toBe(expected.length);
  }
  const { rows: wrong } = await db.query(
    `with recursive up(listing, id, parent_id, depth) as (
       select l.id, c.id, c.parent_id, 1 from listings l join categories c on c.id = l.category_id where l.marketplace_id = $1
       union all select up.listing, c.id, c.parent_id, up.depth + 1 from up join categories c on c.id = up.parent_id)
     select l.title, l.category_path, coalesce((select array_agg(up.id order by up.depth) from up where up.listing = l.id), '{}') as expected
       from listings l where l.marketplace_id = $1`,
    [m.marketplace.id],
  );
  expect(wrong.filter((r) => JSON.stringify(r.category_path) !== JSON.stringify(r.expected))).toEqual([]);
}

const titlesIn = async (slug: string) => (await search(`category=${await categoryId(slug)}`)).items.map((i) => i.title).sort();
async function categoryId(slug: string) {
  const { rows } = await db.query(`select id from categories where marketplace_id = $1 and slug = $2`, [m.marketplace.id, slug]);
  return rows[0].id as string;
}
const importCategories = (items: { slug: string; names: Record<string, string>; parent?: string; position?: number }[]) => h.console.categories.import({ marketplace: 'paths', items: items.map((i) => ({ position: 0, ...i })) });

beforeAll(async () => {
  h = await startHarness();
  m = await makeSellingMarketplace(h, 'paths', { min_images: 0 });
  seller = (await signUp(h, m.secret, { email: 'seller@example.com' })).token;
  db = new pg.Client({ connectionString: h.databaseUrl });
  await db.connect();
  // furniture > chairs > armchairs, furniture > tables, lighting
  await importCategories([{ slug: 'armchairs', names: { en: 'Armchairs' }, parent: 'chairs' }]);
  await onSale('chair', m.category.chairs);
  await onSale('armchair', await categoryId('armchairs'));
  await onSale('table', m.category.tables);
  await onSale('furniture', m.category.furniture);
  await onSale('lamp', m.category.lighting);
  await onSale('none', undefined);
}, 120_000);
afterAll(async () => {
  await db?.end();
  await h?.close();
});

describe('category_path', () => {
  test('a new listing: its category and every one above it; search and facet counts take the subtree', async () => {
    expect(await titlesIn('furniture')).toEqual(['Listing armchair', 'Listing chair', 'Listing furniture', 'Listing table']);
    expect(await titlesIn('chairs')).toEqual(['Listing armchair', 'Listing chair']);
    const { rows } = await db.query(`select category_path from listings where id = $1`, [listing.armchair]);
    expect(rows[0].category_path).toEqual([await categoryId('armchairs'), m.category.chairs, m.category.furniture]);
    await expectConsistent();
  });

  test("a listing's category changed (and removed): its path follows", async () => {
    const put = (category: string | undefined) =>
      h.request({ method: 'PUT', url: `/v1/me/listings/${listing.table}`, key: m.secret, session: seller, payload: { title: 'Listing table', location: { country: 'SE' }, delivery: { pickup: true }, price: { amount: 10000, currency: 'SEK' }, ...(category ? { category_id: category } : {}) } });
    expect((await put(m.category.lighting)).statusCode).toBe(200);
    expect(await titlesIn('lighting')).toEqual(['Listing lamp', 'Listing table']);
    expect(await titlesIn('furniture')).not.toContain('Listing table');
    await expectConsistent();
    expect((await put(undefined)).statusCode).toBe(200);
    expect(await titlesIn('lighting')).toEqual(['Listing lamp']);
    await expectConsistent();
    expect((await put(m.category.tables)).statusCode).toBe(200);
    await expectConsistent();
  });

  test('a category moved under another parent takes its subtree with it; moved back to the top', async () => {
    await importCategories([{ slug: 'chairs', names: { en: 'Chairs' }, parent: 'lighting' }]);
    expect(await titlesIn('lighting')).toEqual(['Listing armchair', 'Listing chair', 'Listing lamp']);
    expect(await titlesIn('furniture')).toEqual(['Listing furniture', 'Listing table']);
    await expectConsistent();
    await importCategories([{ slug: 'chairs', names: { en: 'Chairs' } }]);
    expect(await titlesIn('lighting')).toEqual(['Listing lamp']);
    expect(await titlesIn('chairs')).toEqual(['Listing armchair', 'Listing chair']);
    await expectConsistent();
    // renamed where it is: nothing moves
    await importCategories([{ slug: 'chairs', names: { en: 'Seating' } }]);
    expect(await titlesIn('chairs')).toEqual(['Listing armchair', 'Listing chair']);
    await expectConsistent();
    // back where it was
    await importCategories([{ slug: 'chairs', names: { en: 'Chairs' }, parent: 'furniture' }]);
    expect(await titlesIn('furniture')).toEqual(['Listing armchair', 'Listing chair', 'Listing furniture', 'Listing table']);
    await expectConsistent();
  });

  test('a listing closed or deleted leaves the category counts; a deleted category leaves its listings without a path', async () => {
    const del = await h.request({ method: 'DELETE', url: `/v1/me/listings/${listing.lamp}`, key: m.secret, session: seller });
    expect(del.statusCode, del.body).toBe(204); // ever on sale: closed
    expect(await titlesIn('lighting')).toEqual([]);
    await expectConsistent();
    await db.query(`delete from listings where id = $1`, [listing.furniture]);
    expect(await titlesIn('furniture')).toEqual(['Listing armchair', 'Listing chair', 'Listing table']);
    await expectConsistent();
    const armchairs = await categoryId('armchairs');
    await db.query(`delete from categories where id = $1`, [armchairs]);
    const { rows } = await db.query(`select category_id, category_path from listings where id = $1`, [listing.armchair]);
    expect(rows[0]).toEqual({ category_id: null, category_path: [] });
    expect(await titlesIn('chairs')).toEqual(['Listing chair']);
    await expectConsistent();
  });

  test.each(['the move first', 'the listing first'])('a listing saved while its category moves gets the committed tree (%s)', async (first) => {
    const other = new pg.Client({ connectionString: h.databaseUrl });
    await other.connect();
    try {
      const move = (parent: string) => `update categories set parent_id = '${parent}' where id = '${m.category.tables}'`;
      const save = `update listings set category_id = '${m.category.tables}' where id = '${listing.chair}'`;
      const [a, b] = first === 'the move first' ? [db, other] : [other, db];
      await a.query('begin');
      await a.query(first === 'the move first' ? move(m.category.lighting!) : save);
      await b.query('begin');
      const waiting = b.query(first === 'the move first' ? save : move(m.category.lighting!)).then(() => b.query('commit'));
      await new Promise((r) => setTimeout(r, 300)); // b is waiting for a's lock on the tree
      await a.query('commit');
      await waiting;
      const { rows } = await db.query(`select category_path from listings where id = $1`, [listing.chair]);
      expect(rows[0].category_path).toEqual([m.category.tables, m.category.lighting]);
      await expectConsistent();
      await db.query(move(m.category.furniture!));
      await db.query(`update listings set category_id = '${m.category.chairs}' where id = '${listing.chair}'`);
      await expectConsistent();
    } finally {
      await other.end();
    }
  });
});
