import { Migration } from '@mikro-orm/migrations';

/**
 * Search totals past 10 000 matches are estimated from a sample of the on-sale listings
 * (listing-search: `total_is_estimate`). The sample is chosen by 12 random bits of the id (UUID v7
 * and v4 ids end in random bits), so it is independent of every filter; the index finds a sample
 * of 1/4096 steps without reading the rest. A second index lets category + price filters meet the
 * catalogue-term index in a BitmapAnd instead of checking every listing of the terms.
 */
export class Migration20261125090000_search_totals extends Migration {
  override name = 'Migration20261125090000_search_totals';

  up(): void {
    this.addSql(`create function hm_sample_bucket(id uuid) returns int language sql immutable parallel safe
      as $$ select ('x' || right(id::text, 3))::bit(12)::int $$`);
    this.addSql(`create index listings_shop_sample_idx on listings (marketplace_id, hm_sample_bucket(id)) where on_sale`);
    this.addSql(`create index listings_shop_category_price_idx on listings (marketplace_id, category_id, price_base) where on_sale`);
  }

}
