/**
 * Bench data: a marketplace with a realistic catalogue and N listings on sale, generated inside
 * Postgres (INSERT … SELECT over generate_series, in batches) so a million rows take minutes.
 *
 *   npm run seed:bench -- --listings 1000000 [--marketplace bench]     (into the configured database)
 *
 * Listings get 2–4 word titles and 8–20 word descriptions from a vocabulary in English, Swedish,
 * German and French (accents included), a leaf category, a brand (80 %), a colour (60 %), a
 * condition, a material attribute, prices in SEK (60 %), EUR (30 %) and USD (10 %), favourites
 * (5 % of listings saved by 1–61 users each, counts to match), publish dates over the last year, and
 * 2 000 sellers. The search columns the triggers would fill (search document, term ids, the
 * category's path, the price in SEK) are computed set-wise in the same statement (triggers off while
 * seeding), then checked.
 */
import pg from 'pg';

export const VOCABULARY = [
  'chair', 'table', 'lamp', 'sofa', 'cabinet', 'mirror', 'rug', 'shelf', 'desk', 'stool', 'bench', 'bed', 'dresser', 'sideboard', 'armchair', 'vase', 'clock', 'frame',
  'oak', 'teak', 'walnut', 'birch', 'pine', 'brass', 'glass', 'leather', 'wool', 'linen', 'velvet', 'marble', 'steel', 'rattan', 'ceramic', 'chrome',
  'vintage', 'modern', 'classic', 'danish', 'swedish', 'italian', 'rustic', 'minimal', 'antique', 'retro', 'industrial', 'handmade', 'original', 'restored',
  'stol', 'bord', 'lampa', 'soffa', 'skåp', 'spegel', 'matta', 'hylla', 'skrivbord', 'pall', 'bänk', 'säng', 'byrå', 'fåtölj', 'vas', 'klocka', 'ram', 'kök',
  'ek', 'björk', 'furu', 'mässing', 'glas', 'läder', 'ull', 'lin', 'sammet', 'marmor', 'stål', 'rotting', 'keramik', 'grön', 'blå', 'röd', 'vit', 'svart',
  'stuhl', 'tisch', 'leuchte', 'schrank', 'spiegel', 'teppich', 'regal', 'schreibtisch', 'hocker', 'kommode', 'sessel', 'möbel', 'größe', 'schön', 'weiß', 'grün',
  'chaise', 'lampe', 'canapé', 'armoire', 'miroir', 'tapis', 'étagère', 'bureau', 'tabouret', 'fauteuil', 'café', 'école', 'été', 'crème', 'noyer', 'chêne',
  'small', 'large', 'tall', 'low', 'round', 'square', 'pair', 'set', 'three', 'four', 'drawers', 'doors', 'legs', 'top', 'seat', 'back', 'arms', 'shade',
  'condition', 'patina', 'scratches', 'signed', 'label', 'designer', 'studio', 'factory', 'collection', 'edition', 'series', 'model', 'era', 'sixties', 'seventies',
  'kaffe', 'karaff', 'karmstol', 'kandelaber', 'kantin', 'kasse', 'katedral', 'kakel', 'kammare', 'kapsyl',
];
/** In one title of every 2 000: the "selective word" of the search benchmark. */
export const RARE_WORD = 'quixotic';
const BRANDS = [
  'Artek', 'Ekström Möbler', 'École Design', 'Källemo', 'Gärsnäs', 'Svenskt Tenn', 'Lammhults', 'Fritz Hansen', 'Carl Hansen', 'Vitra', 'Thonet', 'Kartell', 'Cassina',
  'Zanotta', 'Ligne Roset', 'Knoll', 'Herman Miller', 'Muuto', 'Hay', 'Menu', 'Gubi', 'Louis Poulsen', 'Flos', 'Artemide', 'Örsjö', 'Möller', 'Bruno Mathsson',
  'Ikea', 'String', 'Nordiska Kompaniet', 'Dux', 'Mobelfabrik Åby', 'Bodafors', 'Norrgavel', 'Malmsten', 'Design House', 'Fogia', 'Blå Station', 'Offecct', 'Johanson',
];
const COLORS = ['Red', 'Blue', 'Green', 'Black', 'White', 'Brown', 'Grey', 'Yellow', 'Orange', 'Pink', 'Beige', 'Natural'];
const CONDITIONS = ['New', 'Very good', 'Good', 'Worn'];
const MATERIALS = ['oak', 'teak', 'walnut', 'birch', 'pine', 'steel', 'brass', 'glass', 'leather', 'wool'];
const ROOTS = ['Furniture', 'Lighting', 'Decor', 'Textiles', 'Kitchen'];
const CHILDREN = ['Chairs', 'Tables', 'Storage', 'Sofas', 'Beds', 'Desks'];

const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export interface SeedResult {
  marketplaceId: string;
  categories: { id: string; slug: string; parentId: string | null }[];
  brands: string[];
  colors: string[];
  listings: number;
  seconds: number;
}

function progress(done: number, total: number, started: number) {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const s = (Date.now() - started) / 1000;
  process.stderr.write(`\r  [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.floor((done / total) * 100)).padStart(3)}% ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} listings, ${s.toFixed(1)} s`);
}

/** Creates (or extends) marketplace `slug` with bench data; needs a migrated database. */
export async function seedBench(connectionString: string, opts: { listings: number; marketplace: string; batch?: number; quiet?: boolean }): Promise<SeedResult> {
  const started = Date.now();
  const pool = new pg.Pool({ connectionString, max: 2 });
  pool.on('error', () => {});
  const db = await pool.connect();
  try {
    await db.query('begin');
    let m = (await db.query(`select id from marketplaces where slug = $1`, [opts.marketplace])).rows[0] as { id: string } | undefined;
    if (!m) {
      m = (
        await db.query(
          `insert into marketplaces (id, name, slug, currencies, locales, term_kinds, listing_rules, shipping, commission_percent, storefront_url, created_at, updated_at)
           values (gen_random_uuid(), $1, $2, '{SEK,EUR,USD}', '{en,sv}', $3, $4, '{"sizes":[],"zones":[]}', 10, 'http://localhost:3000', now(), now()) returning id`,
          [
            `Bench ${opts.marketplace}`,
            opts.marketplace,
            JSON.stringify([
              { key: 'brand', names: { en: 'Brand', sv: 'Märke' } },
              { key: 'color', names: { en: 'Colour', sv: 'Färg' } },
              { key: 'condition', names: { en: 'Condition', sv: 'Skick' } },
            ]),
            JSON.stringify({ min_images: 0, require_approval: false, require_category: false, required_terms: [], valuations: false }),
          ],
        )
      ).rows[0];
    }
    const mid = m!.id;
    // catalogue: 5 roots × 6 children; terms; rates and the price factors they give
    for (const [i, root] of ROOTS.entries()) {
      await db.query(`insert into categories (id, marketplace_id, slug, names, parent_id, position, created_at, updated_at) values (gen_random_uuid(), $1, $2, $3, null, $4, now(), now()) on conflict do nothing`, [
        mid,
        slug(root),
        JSON.stringify({ en: root }),
        i,
      ]);
      for (const [j, child] of CHILDREN.entries()) {
        await db.query(
          `insert into categories (id, marketplace_id, slug, names, parent_id, position, created_at, updated_at)
           select gen_random_uuid(), $1, $2, $3, id, $4, now(), now() from categories where marketplace_id = $1 and slug = $5 on conflict do nothing`,
          [mid, `${slug(root)}-${slug(child)}`, JSON.stringify({ en: `${child}` }), j, slug(root)],
        );
      }
    }
    for (const [kind, names] of [
      ['brand', BRANDS],
      ['color', COLORS],
      ['condition', CONDITIONS],
    ] as const) {
      for (const name of names) {
        await db.query(`insert into catalog_terms (id, marketplace_id, kind, slug, names, descriptions, created_at, updated_at) values (gen_random_uuid(), $1, $2, $3, $4, '{}', now(), now()) on conflict do nothing`, [
          mid,
          kind,
          slug(name),
          JSON.stringify({ en: name }),
        ]);
      }
    }
    await db.query(`insert into exchange_rates (id, marketplace_id, date, base, quote, rate, created_at) values (gen_random_uuid(), $1, '2026-01-01', 'EUR', 'SEK', 11.5, now()), (gen_random_uuid(), $1, '2026-01-01', 'USD', 'SEK', 10.6, now()) on conflict do nothing`, [mid]);
    await db.query(`insert into price_factors (marketplace_id, currency, factor_num, factor_den, rates_date) values ($1, 'SEK', 1, 1, '2026-01-01'), ($1, 'EUR', 23, 2, '2026-01-01'), ($1, 'USD', 53, 5, '2026-01-01') on conflict do nothing`, [mid]);
    await db.query(
      `insert into users (id, marketplace_id, email, email_normalized, email_verified_at, first_name, display_name, locale, created_at, updated_at)
       select gen_random_uuid(), $1, 'seller' || g || '@bench.example', 'seller' || g || '@bench.example', now(), 'Seller', 'seller' || g, '', now(), now()
       from generate_series(1, 2000) g on conflict do nothing`,
      [mid],
    );
    await db.query('commit');

    const categories = (await db.query(`select id, slug, parent_id from categories where marketplace_id = $1 order by slug`, [mid])).rows.map((r) => ({ id: r.id, slug: r.slug, parentId: r.parent_id }));
    const terms = (await db.query(`select id, kind, names->>'en' as name from catalog_terms where marketplace_id = $1 order by kind, slug`, [mid])).rows as { id: string; kind: string; name: string }[];
    const sellers = (await db.query(`select id from users where marketplace_id = $1 and email like '%@bench.example'`, [mid])).rows.map((r) => r.id as string);
    const leaves = categories.filter((c) => c.parentId).map((c) => c.id);
    // each leaf's parent (the catalogue is two levels deep): a listing's category_path is [leaf, parent]
    const parents = categories.filter((c) => c.parentId).map((c) => c.parentId!);
    const of = (kind: string) => terms.filter((t) => t.kind === kind);

    const batch = opts.batch ?? 50_000;
    const already = Number((await db.query(`select count(*) from listings where marketplace_id = $1`, [mid])).rows[0].count);
    const loadStarted = Date.now();
    await db.query(`select setseed(0.42)`);
    for (let done = 0; done < opts.listings; done += batch) {
      const n = Math.min(batch, opts.listings - done);
      await db.query('begin');
      // the search columns are computed here, set-wise, the way the listings triggers compute them
      await db.query(`set local session_replication_role = replica`);
      await db.query(
        `with p as (
           select $2::text[] as words, $3::uuid[] as leaves, $4::uuid[] as sellers,
                  $5::uuid[] as brand_ids, $6::text[] as brand_names, $7::uuid[] as color_ids, $8::text[] as color_names,
                  $9::uuid[] as cond_ids, $10::text[] as cond_names, $11::text[] as materials
         ), g as (
           select i, p.*,
             (select string_agg(p.words[1 + floor(random() * array_length(p.words, 1))::int + 0 * k], ' ') from generate_series(1, 2 + (i % 3)) k)
               || case when i % 2000 = 7 then ' ${RARE_WORD}' else '' end as title,
             (select string_agg(p.words[1 + floor(random() * array_length(p.words, 1))::int + 0 * k], ' ') from generate_series(1, 8 + (i % 13)) k) as description,
             case when random() < 0.8 then 1 + floor(random() * array_length(p.brand_ids, 1))::int end as b,
             case when random() < 0.6 then 1 + floor(random() * array_length(p.color_ids, 1))::int end as c,
             1 + floor(random() * array_length(p.cond_ids, 1))::int as d,
             case when i % 10 < 6 then 'SEK' when i % 10 < 9 then 'EUR' else 'USD' end as currency,
             random() as r
           from generate_series($12::int + 1, $12::int + $13::int) i, p
         ), rows as (
           select g.*, case g.currency when 'SEK' then (50000 + floor(power(g.r, 2) * 5000000))::bigint else (5000 + floor(power(g.r, 2) * 450000))::bigint end as amount,
             jsonb_strip_nulls(jsonb_build_object('brand', g.brand_ids[g.b], 'color', g.color_ids[g.c], 'condition', g.cond_ids[g.d])) as terms
           from g
         )
         insert into listings (id, marketplace_id, seller_id, status, title, description, locale, attributes, category_id, terms, price_amount, price_currency,
                               stock, favorite_count, location, delivery, custody, wants_storage, ever_on_sale, seller_blocked, published_at, created_at, updated_at,
                               search_doc, term_ids, price_base, category_path)
         -- (a subquery with volatile columns is evaluated once per row: the category chosen is the one its path is of)
         select s.*, array_remove(array[s.category_id, ($14::uuid[])[array_position($3::uuid[], s.category_id)]], null) from (
         select gen_random_uuid(), $1::uuid, sellers[1 + floor(random() * array_length(sellers, 1))::int], 'published', initcap(title), description, 'en',
                jsonb_build_object('material', materials[1 + floor(random() * array_length(materials, 1))::int], 'year', 1900 + floor(random() * 120)::int),
                leaves[1 + floor(random() * array_length(leaves, 1))::int] as category_id, terms, amount, currency,
                1, 0, '{"country":"SE"}'::jsonb, '{"pickup":true}'::jsonb, 'seller', false, true, false,
                now() - random() * interval '365 days', now(), now(),
                setweight(to_tsvector('simple', hm_fold(title)), 'A')
                  || setweight(to_tsvector('simple', hm_fold(concat_ws(' ', brand_names[b], color_names[c], cond_names[d]))), 'B')
                  || setweight(to_tsvector('simple', hm_fold(description)), 'C'),
                array_remove(array[brand_ids[b], color_ids[c], cond_ids[d]], null),
                round(amount * case currency when 'SEK' then 1 when 'EUR' then 11.5 else 10.6 end)
         from rows) s`,
        [
          mid,
          VOCABULARY,
          leaves,
          sellers,
          of('brand').map((t) => t.id),
          of('brand').map((t) => t.name),
          of('color').map((t) => t.id),
          of('color').map((t) => t.name),
          of('condition').map((t) => t.id),
          of('condition').map((t) => t.name),
          MATERIALS,
          already + done,
          n,
          parents,
        ],
      );
      await db.query('commit');
      if (!opts.quiet) progress(done + n, opts.listings, loadStarted);
    }
    if (!opts.quiet) process.stderr.write('\n');
    // favourites: a sample of listings gets a skewed number of savers each; counts follow the rows
    await db.query('begin');
    await db.query(`set local session_replication_role = replica`);
    await db.query(
      `insert into favorites (marketplace_id, user_id, listing_id, created_at)
       select $1, ($2::uuid[])[1 + floor(random() * array_length($2::uuid[], 1))::int + 0 * k], l.id, now() - random() * interval '90 days'
         from (select id from listings tablesample system (5) where marketplace_id = $1) l,
              lateral generate_series(1, 1 + floor(power(random(), 6) * 60)::int) k
       on conflict do nothing`,
      [mid, sellers],
    );
    await db.query(`update listings l set favorite_count = f.n from (select listing_id, count(*)::int as n from favorites where marketplace_id = $1 group by listing_id) f where l.id = f.listing_id and l.favorite_count <> f.n`, [mid]);
    await db.query(`update listings set favorite_count = 0 where marketplace_id = $1 and favorite_count > 0 and id not in (select listing_id from favorites where marketplace_id = $1)`, [mid]);
    // triggers were off: the on-sale count is set here, as the shop_counts trigger would keep it
    await db.query(
      `insert into shop_counts (marketplace_id, on_sale) select $1, count(*) from listings where marketplace_id = $1 and on_sale
       on conflict (marketplace_id) do update set on_sale = excluded.on_sale`,
      [mid],
    );
    // triggers were off: the search vocabulary (title words, term names) is learnt set-wise here
    await db.query(`select hm_relearn_words($1)`, [mid]);
    await db.query('commit');
    await db.query('analyze listings');
    await db.query('analyze favorites');
    // the rows must look exactly like the triggers would have made them
    const [check] = (
      await db.query(
        `select count(*) filter (where exists (
            select 1 from unnest(array['a', 'b', 'c']) w(weight)
             where strip(ts_filter(l.search_doc, array[w.weight]::"char"[])) is distinct from strip(ts_filter(
               setweight(to_tsvector('simple', hm_fold(l.title)), 'A')
               || setweight(to_tsvector('simple', hm_fold(coalesce((select string_agg(n.value, ' ') from catalog_terms t, jsonb_each_text(t.names) n where t.id = any(l.term_ids)), ''))), 'B')
               || setweight(to_tsvector('simple', hm_fold(l.description)), 'C'), array[w.weight]::"char"[])))) as bad,
                count(*) filter (where l.category_path is distinct from hm_category_path(l.marketplace_id, l.category_id)) as bad_path
         from (select * from listings where marketplace_id = $1 order by random() limit 200) l`,
        [mid],
      )
    ).rows;
    if (Number(check.bad) > 0) throw new Error(`${check.bad} of 200 sampled listings have a search document the trigger would not make`);
    if (Number(check.bad_path) > 0) throw new Error(`${check.bad_path} of 200 sampled listings have a category_path the trigger would not make`);
    return { marketplaceId: mid, categories, brands: of('brand').map((t) => t.id), colors: of('color').map((t) => t.id), listings: opts.listings, seconds: (Date.now() - started) / 1000 };
  } finally {
    db.release();
    await pool.end();
  }
}
