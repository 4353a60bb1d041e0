/**
 * Benchmark: one content page read (issue 15).
 *
 *   api    GET /v1/pages/home?currency=EUR over HTTP to the real server: a page of 12 blocks, four of
 *          them listing grids (two by rule, two picked), plus a hero with an image, a banner, category
 *          tiles, image and text, a featured listing, a showroom, promises and questions; 300 listings
 *          on sale with photos, terms and sites.
 *   sql    the same rows read by hand-written SQL through `pg` in this process (the page row; the rule
 *          grids, picked and featured listings with their photos, terms and site; the media; the
 *          categories and the site; today's rate), assembled into a plain object: the floor a page
 *          read cannot go under.
 *
 * Reported: latency p50/p95 of each (sequential, one at a time, after a warm-up), throughput with 10
 * at once, the ratio api/sql, and the SQL statements one API page read sends (counted at the ORM's
 * connection: every statement, including the transaction and tenant settings around them).
 *
 * Run: npm run -s bench:pages   (BENCH_PAGE_READS, default 400 per side; BENCH_LISTINGS, default 300)
 */
import pg from 'pg';
import sharp from 'sharp';
import { f, machine, percentile, runBench, startApiStack, writeResults } from './lib.js';

const READS = Number(process.env.BENCH_PAGE_READS ?? 400);
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 300);
const CONCURRENT = 10;

async function main() {
  const started = new Date();
  const machineInfo = machine();
  const { db, orm, apiUrl, operator, stop } = await startApiStack('pages');
  const pool = new pg.Pool({ connectionString: db.url, max: 10 });
  pool.on('error', () => {}); // idle clients see the database stop at the end

  try {
    const { keys, marketplace } = await operator.marketplace.create({ name: 'Bench', slug: 'bench', currencies: ['SEK', 'EUR'], locales: ['en', 'sv'], storefront_url: 'http://127.0.0.1:3000' });
    await operator.marketplace.update({ marketplace: 'bench', settings: { term_kinds: [{ key: 'brand', names: { en: 'Brand' } }], listings: { min_images: 0, require_approval: false, require_category: false, required_terms: [], valuations: false } } });
    await operator.categories.import({
      marketplace: 'bench',
      items: [
        { slug: 'furniture', names: { en: 'Furniture', sv: 'Möbler' }, position: 1 },
        { slug: 'chairs', names: { en: 'Chairs', sv: 'Stolar' }, parent: 'furniture', position: 1 },
        { slug: 'tables', names: { en: 'Tables', sv: 'Bord' }, parent: 'furniture', position: 2 },
        { slug: 'lighting', names: { en: 'Lighting', sv: 'Belysning' }, position: 2 },
      ],
    });
    await operator.terms.import({ marketplace: 'bench', items: [{ kind: 'brand', slug: 'artek', names: { en: 'Artek' }, descriptions: {} }] });
    const { site } = await operator.sites.create({ marketplace: 'bench', site: { kind: 'showroom', name: 'Showroom', line1: 'Götgatan 1', postal_code: '11646', city: 'Stockholm', country: 'SE', buyer_pickup: true, opening_hours: 'Tue–Sat 11–18' } });
    await operator.rates.set({ marketplace: 'bench', date: new Date().toISOString().slice(0, 10), base: 'EUR', rates: { SEK: 11.5 } });
    const call = async (method: string, url: string, session?: string, body?: object) => {
      const res = await fetch(`${apiUrl}/v1${url}`, {
        method,
        headers: { authorization: `Bearer ${keys.secret}`, ...(session ? { 'x-user-session': session } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    const category = Object.fromEntries(((await call('GET', '/categories')).json.items as { id: string; slug: string }[]).map((c) => [c.slug, c.id]));
    const artek = (await call('GET', '/catalog-terms/brand/artek')).json.id as string;

    console.error(`bench:pages ${LISTINGS} listings on sale…`);
    const seller = ((await call('POST', '/users', undefined, { email: 'seller@example.com' })).json.session as { token: string }).token;
    const slugs = ['chairs', 'tables', 'lighting'];
    const ids: string[] = [];
    for (let i = 0; i < LISTINGS; i++) {
      const made = await call('POST', '/me/listings', seller, {
        title: `Listing ${i}`,
        price: { amount: 10_000 + i * 100, currency: i % 2 ? 'SEK' : 'EUR' },
        category_id: category[slugs[i % 3]!],
        terms: i % 4 === 0 ? { brand: artek } : {},
        location: { country: 'SE' },
        delivery: { pickup: true },
      });
      const id = made.json.id as string;
      if ((await call('POST', `/me/listings/${id}/publish`, seller, {})).status !== 200) throw new Error('publish failed');
      ids.push(id);
    }
    // photos, as the worker leaves them (ready rows; the bytes do not matter to a page read)
    await orm.em.getConnection().execute(
      `insert into listing_images (id, marketplace_id, listing_id, position, status, format, bytes, width, height, created_at, updated_at)
       select gen_random_uuid(), marketplace_id, id, n, 'ready', 'jpeg', 1000, 1600, 1200, now(), now() from listings, generate_series(0, 2) n`,
    );
    const image = async (w: number, h: number, alt: string) => (await operator.media.upload({ marketplace: 'bench', file: await sharp({ create: { width: w, height: h, channels: 3, background: '#a08060' } }).jpeg().toBuffer(), alt })).image.id;
    const wide = await image(2400, 1200, 'A wide room');
    const square = await image(800, 800, 'A chair');
    const blocks = [
      { id: 'hero', type: 'hero', heading: 'Welcome', text: 'Second-hand design.', visual: 'image', image_id: wide, search: true, buttons: [{ label: 'Browse', href: '/en/search' }] },
      { id: 'newest', type: 'listing_grid', heading: 'Newest', source: 'rule', rule: { sort: 'newest' }, limit: 8 },
      { id: 'chairs', type: 'listing_grid', heading: 'Chairs by Artek', source: 'rule', rule: { category_id: category.furniture, sort: 'popular', term_ids: [artek] }, limit: 8 },
      { id: 'picked', type: 'listing_grid', heading: 'Picked', source: 'picked', listing_ids: ids.slice(10, 22) },
      { id: 'more', type: 'listing_grid', heading: 'More', source: 'picked', listing_ids: ids.slice(-8) },
      { id: 'banner', type: 'banner', heading: 'Sale', image_id: wide, phone_image_id: square },
      { id: 'tiles', type: 'category_tiles', tiles: [{ category_id: category.chairs, image_id: square }, { category_id: category.tables }, { category_id: category.lighting }] },
      { id: 'story', type: 'image_text', heading: 'Workshop', text: 'We restore.', image_id: square },
      { id: 'feature', type: 'featured_listing', heading: 'Pick of the week', listing_id: ids[Math.min(42, ids.length - 1)] },
      { id: 'showroom', type: 'showroom', heading: 'Visit', location_id: site.id },
      { id: 'promises', type: 'promises', items: [{ title: 'Checked' }, { title: 'Delivered' }] },
      { id: 'faq', type: 'faq', questions: [{ question: 'Shipping?', answer: 'Yes.' }] },
    ];
    await operator.pages.put({ marketplace: 'bench', slug: 'home', locale: 'en', page: { title: 'Home', description: 'Bench page.', blocks } });
    await operator.pages.publish({ marketplace: 'bench', slug: 'home', locale: 'en' });

    const apiRead = async () => {
      const res = await fetch(`${apiUrl}/v1/pages/home?currency=EUR`, { headers: { authorization: `Bearer ${keys.secret}` } });
      if (res.status !== 200) throw new Error(`GET /v1/pages/home answered ${res.status}`);
      return (await res.json()) as { blocks: { type: string; listings?: { id: string }[]; listing?: { id: string } }[] };
    };
    const first = await apiRead();
    if (first.blocks.length !== 12 || first.blocks.filter((b) => b.type === 'listing_grid' && b.listings?.length).length !== 4) throw new Error(`unexpected page: ${first.blocks.map((b) => b.type).join(', ')}`);

    // statements of one API page read, counted where the ORM sends them
    const conn = orm.em.getConnection();
    const proto = Object.getPrototypeOf(conn) as { execute: (...a: unknown[]) => unknown };
    const original = proto.execute;
    let statements = 0;
    proto.execute = function (this: unknown, ...a: unknown[]) {
      statements++;
      return original.apply(this, a);
    };
    await apiRead();
    proto.execute = original;

    const sqlRead = () => handWritten(pool, marketplace.id, 'home', 'en');
    const hand = await sqlRead();
    // both sides read the same listings (the API's grids and featured listing; SQL may read a picked one more that is not on sale)
    const apiIds = new Set(first.blocks.flatMap((b) => [...(b.listings ?? []), ...(b.listing ? [b.listing] : [])].map((l) => l.id)));
    if (hand.listings < apiIds.size) throw new Error(`hand-written read found ${hand.listings} listings, the API ${apiIds.size}`);

    const timed = async (read: () => Promise<unknown>, n: number) => {
      const ms: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await read();
        ms.push(performance.now() - t0);
      }
      return ms;
    };
    const throughput = async (read: () => Promise<unknown>, n: number) => {
      const t0 = performance.now();
      let next = 0;
      await Promise.all(Array.from({ length: CONCURRENT }, async () => {
        while (next++ < n) await read();
      }));
      return (n / (performance.now() - t0)) * 1000;
    };
    console.error('bench:pages warm-up…');
    await timed(apiRead, 50);
    await timed(sqlRead, 50);
    console.error(`bench:pages ${READS} reads each, one at a time, alternating halves…`);
    const api: number[] = [];
    const sql: number[] = [];
    for (let half = 0; half < 2; half++) {
      if (half === 0) {
        api.push(...(await timed(apiRead, READS / 2)));
        sql.push(...(await timed(sqlRead, READS / 2)));
      } else {
        sql.push(...(await timed(sqlRead, READS / 2)));
        api.push(...(await timed(apiRead, READS / 2)));
      }
    }
    console.error(`bench:pages ${READS} reads each, ${CONCURRENT} at once…`);
    const apiRps = await throughput(apiRead, READS);
    const sqlRps = await throughput(sqlRead, READS);

    const row = (name: string, xs: number[], rps: number) => `| ${name} | ${f(percentile(xs, 0.5), 2)} | ${f(percentile(xs, 0.95), 2)} | ${f(rps)} |`;
    const ratio = percentile(api, 0.5) / percentile(sql, 0.5);
    const report = {
      benchmark: 'pages',
      date: started.toISOString(),
      machine: machineInfo,
      settings: { reads: READS, listings: LISTINGS, concurrent: CONCURRENT, blocks: blocks.length, listingGrids: 4 },
      api: { p50: percentile(api, 0.5), p95: percentile(api, 0.95), rps: apiRps },
      sql: { p50: percentile(sql, 0.5), p95: percentile(sql, 0.95), rps: sqlRps, statements: hand.statements },
      ratioP50: ratio,
      statementsPerApiRead: statements,
    };
    const md = [
      `# pages — ${started.toISOString()}`,
      '',
      `GET /v1/pages/home?currency=EUR: 12 blocks (4 listing grids: 2 by rule, 2 picked; ${first.blocks.reduce((n, b) => n + (b.listings?.length ?? 0), 0)} listings in them), ${LISTINGS} listings on sale. ${machineInfo.cpus} × ${machineInfo.cpuModel}, Node ${machineInfo.node}, commit ${machineInfo.commit ?? '?'}.`,
      '',
      '| Read | p50 ms | p95 ms | reads/s (10 at once) |',
      '|---|---|---|---|',
      row('api (HTTP, full stack)', api, apiRps),
      row(`hand-written SQL (${hand.statements} statements, no HTTP)`, sql, sqlRps),
      '',
      `Ratio api/sql at p50: **${f(ratio, 1)}×**. SQL statements per API page read: **${statements}** (every statement the ORM sends, transaction and tenant settings included; the same whatever the number of blocks).`,
      '',
    ].join('\n');
    writeResults('pages', started.toISOString(), report, md);
    console.log(md);
  } finally {
    await pool.end().catch(() => {});
    await stop();
  }
}

/**
 * The page's data by hand: the row, then the listings (rule grids, picked and featured) with their
 * photos, terms and site in one statement, then media, categories, sites and today's rate in one.
 */
async function handWritten(pool: pg.Pool, marketplaceId: string, slug: string, locale: string) {
  const [page] = (await pool.query(`select published from pages where marketplace_id = $1 and slug = $2 and locale = $3 and published is not null`, [marketplaceId, slug, locale])).rows as { published: { blocks: Record<string, unknown>[] } }[];
  const blocks = page!.published.blocks;
  const picked = blocks.flatMap((b) => [...((b.listing_ids as string[] | undefined) ?? []), ...(b.type === 'featured_listing' ? [b.listing_id as string] : [])]);
  const rules = blocks.filter((b) => b.source === 'rule').map((b) => ({ key: b.id as string, ...(b.rule as { category_id?: string; sort?: string; term_ids?: string[] }), limit: (b.limit as number) ?? 8 }));
  const order = { newest: 'l.published_at desc, l.id desc', price_asc: 'l.price_base asc, l.id asc', price_desc: 'l.price_base desc, l.id desc', popular: 'l.favorite_count desc, l.id desc' } as Record<string, string>;
  const params: unknown[] = [marketplaceId, picked];
  const parts = rules.map((r) => {
    const where = ['l.marketplace_id = $1', 'l.on_sale'];
    if (r.category_id) {
      params.push(r.category_id);
      where.push(`l.category_id in (with recursive sub as (select id from categories where marketplace_id = $1 and id = $${params.length} union all select c.id from categories c join sub on c.parent_id = sub.id where c.marketplace_id = $1) select id from sub)`);
    }
    if (r.term_ids?.length) {
      params.push(r.term_ids);
      where.push(`l.term_ids && $${params.length}::uuid[]`);
    }
    params.push(r.limit);
    return `(select l.id from listings l where ${where.join(' and ')} order by ${order[r.sort ?? 'newest']} limit $${params.length})`;
  });
  const listings = (
    await pool.query(
      `with ids as (select unnest($2::uuid[]) as id ${parts.map((p) => `union ${p}`).join(' ')})
       select l.*, (select json_agg(i order by i.position) from listing_images i where i.marketplace_id = $1 and i.listing_id = l.id) as images,
              (select json_agg(t) from catalog_terms t where t.marketplace_id = $1 and t.id = any(l.term_ids)) as terms,
              (select row_to_json(s) from sites s where s.marketplace_id = $1 and s.id = l.site_id) as site
       from listings l where l.marketplace_id = $1 and l.id in (select id from ids)`,
      params,
    )
  ).rows;
  const mediaIds = blocks.flatMap((b) => [b.image_id, b.phone_image_id, ...((b.tiles as { image_id?: string }[] | undefined) ?? []).map((t) => t.image_id)]).filter(Boolean);
  const categoryIds = blocks.flatMap((b) => ((b.tiles as { category_id: string }[] | undefined) ?? []).map((t) => t.category_id));
  const siteIds = blocks.filter((b) => b.location_id).map((b) => b.location_id);
  const [rest] = (
    await pool.query(
      `select (select json_agg(m) from media m where m.marketplace_id = $1 and m.id = any($2::uuid[])) as media,
              (select json_agg(c) from categories c where c.marketplace_id = $1 and c.id = any($3::uuid[])) as categories,
              (select json_agg(s) from sites s where s.marketplace_id = $1 and s.id = any($4::uuid[]) and s.active) as sites,
              (select json_agg(r) from exchange_rates r where r.marketplace_id = $1 and r.date <= current_date) as rates`,
      [marketplaceId, mediaIds, categoryIds, siteIds],
    )
  ).rows;
  return { statements: 3, listings: listings.length, page: { blocks, listings, ...rest } };
}

runBench('pages', main);
