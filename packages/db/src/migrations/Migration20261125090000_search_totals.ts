import { Migration } from '@mikro-orm/migrations';

/**
 * Category + price filters (with or without catalogue terms) meet this index in a BitmapAnd instead
 * of checking every listing of the terms, or of the category, one by one.
 */
export class Migration20261125090000_search_totals extends Migration {
  override name = 'Migration20261125090000_search_totals';

  up(): void {
    this.addSql(`create index listings_shop_category_price_idx on listings (marketplace_id, category_id, price_base) where on_sale`);
  }
}
