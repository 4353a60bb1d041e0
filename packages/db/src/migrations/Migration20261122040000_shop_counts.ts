import { Migration } from '@mikro-orm/migrations';

/**
 * How many listings each marketplace has on sale, kept exact by a trigger: the `total` of an
 * unfiltered search is then one row read instead of a count over every listing on sale.
 */
export class Migration20261122040000_shop_counts extends Migration {
  override name = 'Migration20261122040000_shop_counts';

  up(): void {
    this.addSql(`create table shop_counts (
      marketplace_id uuid primary key references marketplaces(id) on delete cascade,
      on_sale bigint not null default 0 check (on_sale >= 0)
    )`);
    this.addSql(`create or replace function hm_shop_count() returns trigger language plpgsql as $$
      declare d int := 0; m uuid;
      begin
        if tg_op in ('UPDATE', 'DELETE') and old.status = 'published' and old.stock > 0 and not old.seller_blocked then d := d - 1; m := old.marketplace_id; end if;
        if tg_op in ('UPDATE', 'INSERT') and new.status = 'published' and new.stock > 0 and not new.seller_blocked then d := d + 1; m := new.marketplace_id; end if;
        if d <> 0 then
          insert into shop_counts (marketplace_id, on_sale) values (m, greatest(d, 0))
            on conflict (marketplace_id) do update set on_sale = shop_counts.on_sale + d;
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger listings_shop_count after insert or update of status, stock, seller_blocked or delete on listings
      for each row execute function hm_shop_count()`);
    // on sale but without a comparable price (no rate for its currency): price sorts leave these out
    this.addSql(`create index listings_shop_unpriced_idx on listings (marketplace_id)
      where status = 'published' and stock > 0 and not seller_blocked and price_base is null`);
    this.addSql(`insert into shop_counts (marketplace_id, on_sale)
      select marketplace_id, count(*) from listings where status = 'published' and stock > 0 and not seller_blocked group by marketplace_id`);
  }
}
