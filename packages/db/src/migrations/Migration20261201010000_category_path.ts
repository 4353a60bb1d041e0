import { Migration } from '@mikro-orm/migrations';

/** The advisory lock (two int4 keys, apart from the bigint ones of leases) on a marketplace's category tree. */
const TREE_LOCK = (marketplace: string) => `hashtext('hm_category_tree'), hashtext(${marketplace}::text)`;

/**
 * A listing's category and every category above it, in `category_path` (issue 28): the `category`
 * filter of search takes the category's subtree, and a listing is in it exactly when the category is
 * in its path. One GIN index over the path and the catalogue terms (`listings_shop_category_terms_idx`,
 * replacing `listings_shop_facets_idx` over `category_id, term_ids`) then answers a category and terms
 * in one index search: `category_id = any(<the subtree>)` searched the old index once per category of
 * the subtree, each time reading every term's posting list.
 *
 * Kept by triggers: a listing's own (`listings_category_path`: insert, a new `category_id`, a deleted
 * category setting it to null), and a category moved under another parent (`categories_moved`, once per
 * statement: the listings of every category under a moved one get their new path, found by
 * `listings_category_idx`, which also serves a deleted category's `on delete set null`). A listing's path and a move are
 * ordered by an advisory lock on the marketplace's tree (shared by listings, exclusive by a move), so a
 * listing saved while its category moves gets the path of the tree as committed.
 */
export class Migration20261201010000_category_path extends Migration {
  override name = 'Migration20261201010000_category_path';

  up(): void {
    this.addSql(`drop index listings_shop_facets_idx`);
    this.addSql(`alter table listings add column category_path uuid[] not null default '{}'`);
    // a category and its ancestors, itself first (walking up; at most 100 deep)
    this.addSql(`create or replace function hm_category_path(marketplace uuid, category uuid) returns uuid[] language sql stable as $$
      with recursive up(id, parent_id, depth) as (
        select c.id, c.parent_id, 1 from categories c where c.marketplace_id = marketplace and c.id = category
        union all
        select c.id, c.parent_id, up.depth + 1 from categories c join up on c.id = up.parent_id where c.marketplace_id = marketplace and up.depth < 100)
      select coalesce(array_agg(id order by depth), '{}') from up $$`);
    // every category of these marketplaces with its path, the same order (walking down from the roots)
    this.addSql(`create or replace function hm_category_paths(marketplaces uuid[]) returns table (m uuid, category uuid, path uuid[]) language sql stable as $$
      with recursive down(m, category, path) as (
        select c.marketplace_id, c.id, array[c.id] from categories c where c.parent_id is null and c.marketplace_id = any(marketplaces)
        union all
        select c.marketplace_id, c.id, c.id || down.path from categories c join down on c.parent_id = down.category
         where c.marketplace_id = down.m and cardinality(down.path) < 100)
      select m, category, path from down $$`);
    this.addSql(`create or replace function hm_listing_category_path() returns trigger language plpgsql as $$
      begin
        if new.category_id is null then
          new.category_path := '{}';
        else
          perform pg_advisory_xact_lock_shared(${TREE_LOCK('new.marketplace_id')});
          new.category_path := hm_category_path(new.marketplace_id, new.category_id);
        end if;
        return new;
      end $$`);
    this.addSql(`create trigger listings_category_path before insert or update of category_id on listings
      for each row execute function hm_listing_category_path()`);
    this.addSql(`create or replace function hm_categories_moved() returns trigger language plpgsql as $$
      declare moved uuid[]; marketplaces uuid[]; c record;
      begin
        select array_agg(n.id), array_agg(distinct n.marketplace_id) into moved, marketplaces
          from categories_before o join categories_after n on n.id = o.id where o.parent_id is distinct from n.parent_id;
        if moved is null then return null; end if;
        perform pg_advisory_xact_lock(${TREE_LOCK('x')}) from unnest(marketplaces) x order by x;
        -- the categories under a moved one (itself included), each with its listings by listings_category_idx
        for c in select p.m, p.category, p.path from hm_category_paths(marketplaces) p where p.path && moved loop
          update listings l set category_path = c.path where l.category_id = c.category and l.marketplace_id = c.m and l.category_path is distinct from c.path;
        end loop;
        return null;
      end $$`);
    this.addSql(`create trigger categories_moved after update on categories referencing old table as categories_before new table as categories_after
      for each statement execute function hm_categories_moved()`);

    this.addSql(`update listings l set category_path = p.path from hm_category_paths(array(select id from marketplaces)) p
      where l.marketplace_id = p.m and l.category_id = p.category`);
    // a category's listings, on sale or not: a move's paths, and a deleted category's listings (on delete set null)
    this.addSql(`create index listings_category_idx on listings (category_id)`);
    this.addSql(`create index listings_shop_category_terms_idx on listings using gin (category_path, term_ids) where on_sale`);
  }

  override down(): void {
    this.addSql(`create index listings_shop_facets_idx on listings using gin (category_id, term_ids) where on_sale`);
    this.addSql(`drop index listings_shop_category_terms_idx`);
    this.addSql(`drop index listings_category_idx`);
    this.addSql(`drop trigger categories_moved on categories`);
    this.addSql(`drop trigger listings_category_path on listings`);
    this.addSql(`drop function hm_categories_moved(), hm_listing_category_path(), hm_category_paths(uuid[]), hm_category_path(uuid, uuid)`);
    this.addSql(`alter table listings drop column category_path`);
  }
}
