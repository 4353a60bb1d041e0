import { Migration } from '@mikro-orm/migrations';

/**
 * The shop side of listings: a search document (title, catalogue term names, description — folded
 * to lower case without accents), term ids for filtering, the price in the marketplace's default
 * currency for cross-currency sorting and filtering, the seller's block, and favourites.
 */
export class Migration20261122030000_shop extends Migration {
  override name = 'Migration20261122030000_shop';

  up(): void {
    // Per marketplace and currency: minor units of the default currency per minor unit (the day's rates, kept by reprice-listings).
    this.addSql(`create table price_factors (
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      currency text not null,
      factor numeric not null check (factor > 0),
      rates_date date,
      primary key (marketplace_id, currency)
    )`);

    this.addSql(`alter table listings
      add column search_doc tsvector not null default ''::tsvector,
      add column term_ids uuid[] not null default '{}',
      add column price_base bigint,
      add column seller_blocked boolean not null default false`);

    this.addSql(`create or replace function hm_listing_search() returns trigger language plpgsql as $$
      declare names text;
      begin
        new.term_ids := coalesce((select array_agg(value::uuid order by key) from jsonb_each_text(new.terms)), '{}');
        select coalesce(string_agg(n.value, ' '), '') into names
          from catalog_terms t, jsonb_each_text(t.names) n
          where t.marketplace_id = new.marketplace_id and t.id = any(new.term_ids);
        new.search_doc := setweight(to_tsvector('simple', hm_fold(coalesce(new.title, ''))), 'A')
          || setweight(to_tsvector('simple', hm_fold(names)), 'B')
          || setweight(to_tsvector('simple', hm_fold(coalesce(new.description, ''))), 'C');
        return new;
      end $$`);
    this.addSql(`create trigger listings_search before insert or update of title, description, terms on listings
      for each row execute function hm_listing_search()`);

    this.addSql(`create or replace function hm_listing_price() returns trigger language plpgsql as $$
      begin
        -- the default currency is its own unit; others go through the day's factor (null until a rate exists)
        new.price_base := case when new.price_amount is null then null else (
          select round(new.price_amount * coalesce(f.factor, case when new.price_currency = m.currencies[1] then 1 end))
            from marketplaces m left join price_factors f on f.marketplace_id = m.id and f.currency = new.price_currency
           where m.id = new.marketplace_id) end;
        return new;
      end $$`);
    this.addSql(`create trigger listings_price before insert or update of price_amount, price_currency on listings
      for each row execute function hm_listing_price()`);

    // Only listings on sale are searched: every shop index is partial on that.
    const onSale = `where status = 'published' and stock > 0 and not seller_blocked`;
    this.addSql(`create index listings_shop_newest_idx on listings (marketplace_id, published_at desc, id desc) ${onSale}`);
    this.addSql(`create index listings_shop_price_idx on listings (marketplace_id, price_base, id) ${onSale}`);
    this.addSql(`create index listings_shop_popular_idx on listings (marketplace_id, favorite_count desc, id desc) ${onSale}`);
    this.addSql(`create index listings_shop_category_idx on listings (marketplace_id, category_id, published_at desc, id desc) ${onSale}`);
    this.addSql(`create index listings_shop_seller_idx on listings (marketplace_id, seller_id, published_at desc, id desc) ${onSale}`);
    this.addSql(`create index listings_shop_search_idx on listings using gin (search_doc) ${onSale}`);
    this.addSql(`create index listings_shop_terms_idx on listings using gin (term_ids) ${onSale}`);

    this.addSql(`create table favorites (
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      listing_id uuid not null references listings(id) on delete cascade,
      created_at timestamptz not null,
      primary key (marketplace_id, user_id, listing_id)
    )`);
    this.addSql(`create index favorites_recent_idx on favorites (marketplace_id, user_id, created_at desc, listing_id desc)`);
    this.addSql(`create index favorites_listing_idx on favorites (listing_id)`);
  }
}
