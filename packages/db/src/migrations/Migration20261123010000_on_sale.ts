import { Migration } from '@mikro-orm/migrations';

/** "On sale", defined once: published, in stock, seller not blocked. The entity reads the column (Listing.onSale). */
export const ON_SALE_COLUMN = `(status = 'published' and stock > 0 and not seller_blocked) stored`;

/** The shop's partial indexes (Migration20261122030000_shop, …040000_shop_counts), now partial on the column. */
const SHOP_INDEXES = {
  listings_shop_newest_idx: '(marketplace_id, published_at desc, id desc)',
  listings_shop_price_idx: '(marketplace_id, price_base, id)',
  listings_shop_popular_idx: '(marketplace_id, favorite_count desc, id desc)',
  listings_shop_category_idx: '(marketplace_id, category_id, published_at desc, id desc)',
  listings_shop_seller_idx: '(marketplace_id, seller_id, published_at desc, id desc)',
  listings_shop_search_idx: 'using gin (search_doc)',
  listings_shop_terms_idx: 'using gin (term_ids)',
};

/**
 * Until now the on-sale condition was written out in the shop indexes, the count trigger, the
 * search SQL and the ORM filter. It becomes one stored generated column that all of them read.
 */
export class Migration20261123010000_on_sale extends Migration {
  override name = 'Migration20261123010000_on_sale';

  up(): void {
    this.addSql(`alter table listings add column on_sale boolean not null generated always as ${ON_SALE_COLUMN}`);
    for (const [name, columns] of Object.entries(SHOP_INDEXES)) {
      this.addSql(`drop index ${name}`);
      this.addSql(`create index ${name} on listings ${columns} where on_sale`);
    }
    // on sale but without a comparable price (no rate for its currency): price sorts leave these out
    this.addSql(`drop index listings_shop_unpriced_idx`);
    this.addSql(`create index listings_shop_unpriced_idx on listings (marketplace_id) where on_sale and price_base is null`);

    // the count trigger follows the column; an update of a column it is generated from fires it
    this.addSql(`create or replace function hm_shop_count() returns trigger language plpgsql as $$
      declare d int := 0; m uuid;
      begin
        if tg_op in ('UPDATE', 'DELETE') and old.on_sale then d := d - 1; m := old.marketplace_id; end if;
        if tg_op in ('UPDATE', 'INSERT') and new.on_sale then d := d + 1; m := new.marketplace_id; end if;
        if d <> 0 then
          insert into shop_counts (marketplace_id, on_sale) values (m, greatest(d, 0))
            on conflict (marketplace_id) do update set on_sale = shop_counts.on_sale + d;
        end if;
        return null;
      end $$`);
    this.addSql(`drop trigger listings_shop_count on listings`);
    this.addSql(`create trigger listings_shop_count after insert or update of on_sale or delete on listings
      for each row execute function hm_shop_count()`);
  }
}
