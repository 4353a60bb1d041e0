import { expect, inject, test } from 'vitest';
import { ListingSchema } from './entities/index.js';
import { uuidv7 } from './ids.js';
import { createOrm, tenantEm } from './orm.js';
import { createTestDatabase } from './testing/index.js';

test('on_sale is one stored generated column: the entity reads it, the shop count and every shop index follow it', async () => {
  const orm = await createOrm(await createTestDatabase(inject('adminDatabaseUrl')));
  try {
    const sql = orm.em.getConnection();
    const [m, seller, listing] = [uuidv7(), uuidv7(), uuidv7()];
    await sql.execute(`insert into marketplaces (id, name, slug, locales, listing_rules, shipping, created_at, updated_at) values (?, 'M', ?, '{en}', '{}', '{}', now(), now())`, [m, `m-${m}`]);
    await sql.execute(`insert into users (id, marketplace_id, email, email_normalized, created_at, updated_at) values (?, ?, 's@example.com', 's@example.com', now(), now())`, [seller, m]);
    await sql.execute(`insert into listings (id, marketplace_id, seller_id, status, locale, created_at, updated_at) values (?, ?, ?, 'published', 'en', now(), now())`, [listing, m, seller]);
    const count = async () => Number((await sql.execute<{ on_sale: string }[]>(`select on_sale from shop_counts where marketplace_id = ?`, [m]))[0]?.on_sale ?? 0);
    expect(await count()).toBe(1);

    const em = tenantEm(orm, m);
    const l = await em.findOneOrFail(ListingSchema, { id: listing });
    expect(l.onSale).toBe(true);
    l.stock = 0; // out of stock: out of the shop, and the entity sees it after the flush
    await em.flush();
    expect(l.onSale).toBe(false);
    expect(await count()).toBe(0);
    await sql.execute(`update listings set stock = 2 where id = ?`, [listing]);
    expect(await count()).toBe(1);
    await sql.execute(`update listings set seller_blocked = true where id = ?`, [listing]);
    expect(await count()).toBe(0);
    await sql.execute(`update listings set seller_blocked = false, status = 'closed' where id = ?`, [listing]);
    expect(await count()).toBe(0);
    expect(await em.count(ListingSchema, { onSale: true })).toBe(0);

    const writes = await sql.execute(`update listings set on_sale = true where id = ?`, [listing]).catch((e: Error) => e);
    expect(writes).toBeInstanceOf(Error); // generated: nothing can set it

    const indexes = await sql.execute<{ indexname: string; indexdef: string }[]>(`select indexname, indexdef from pg_indexes where tablename = 'listings' and indexname like 'listings_shop_%'`);
    expect(indexes).toHaveLength(11); // with the title and category+terms indexes of Migration20261125200000_search_indexes and the search keys of Migration20261202010000_search_keys
    for (const i of indexes) expect(i.indexdef, i.indexname).toMatch(/ WHERE (on_sale|\(on_sale AND \(price_base IS NULL\)\))$/);
    // the search's `l.on_sale` matches the partial indexes' predicate
    const plan = await orm.em.fork().transactional(async (tx) => {
      await tx.execute(`set local enable_seqscan = off`);
      return tx.execute<{ 'QUERY PLAN': string }[]>(`explain select l.id from listings l where l.marketplace_id = ? and l.on_sale order by l.published_at desc, l.id desc limit 5`, [m]);
    });
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain('listings_shop_newest_idx');
  } finally {
    await orm.close(true);
  }
});
