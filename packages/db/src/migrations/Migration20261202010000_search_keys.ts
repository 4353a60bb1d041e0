import { Migration } from '@mikro-orm/migrations';

/**
 * A category, catalogue terms and a price range found in one index search (issue 28): each listing's
 * `search_keys`, stored and generated from its `category_path`, `term_ids` and `price_base`, indexed by
 * `listings_shop_search_keys_idx` (GIN). One key per (a category of its path or none, one of its terms
 * or none — not both none) × its price's bucket, hashed to 64 bits. A bucket starts at 0 or at 1, 2 or
 * 5 × a power of ten (minor units of the default currency) and runs to the next; a price exactly on
 * such an edge also has the key of that edge alone (`=<edge>`), so a range whose maximum is an edge
 * (`max_price=1000000`) does not take in the whole bucket above it.
 *
 * A search with a price bound and a category or terms asks for the keys of its category (or none) with
 * each chosen term of one kind (or none) and each bucket its range touches (`hm_search_keys`): the
 * listings the index returns are those in the category with one of the terms in a bucket of the range,
 * and only the range's two end buckets hold listings outside it (checked on the row, as before). The
 * category and terms conditions stay in the statement: a hashed key cannot promise them.
 *
 * Before, the category + terms index returned every listing of the category with the terms (7 998 at
 * 1M listings for the benchmark's range, which holds 2 637), each read from the table to check its
 * price. With the price in that index (btree_gin), a range read every price's posting list (measured
 * 4.4 s); buckets make it a handful of keys.
 *
 * Stored, not an index on the expression: a row's keys are checked without computing them again
 * (about 20 µs a row in PL/pgSQL) whatever plan the planner takes. It costs about 80 bytes a listing
 * (1 002 → 1 082 MB at 1M listings). Adding the column rewrites `listings` with the table locked: about
 * 90 s at 1M listings on a 2-core machine, once.
 */
export class Migration20261202010000_search_keys extends Migration {
  override name = 'Migration20261202010000_search_keys';

  up(): void {
    // the bucket a price falls in: 0, else the largest 1, 2 or 5 × 10^k at most the price
    this.addSql(`create or replace function hm_price_bucket(p bigint) returns bigint language plpgsql immutable strict parallel safe as $$
      declare d bigint;
      begin
        if p < 1 then return 0; end if;
        d := (10::numeric ^ (length(p::text) - 1))::bigint;
        return case when p >= 5 * d then 5 * d when p >= 2 * d then 2 * d else d end;
      end $$`);
    // one key (the category and the term as text, '' for none; the bucket, or '=<edge>' for a price on an edge)
    this.addSql(`create or replace function hm_search_key(category text, term text, bucket text) returns bigint
      language sql immutable strict parallel safe as $$ select hashtextextended(category || '/' || term || '/' || bucket, 0) $$`);
    // a listing's keys (none without a price in the default currency)
    this.addSql(`create or replace function hm_listing_search_keys(path uuid[], terms uuid[], price bigint) returns bigint[] language plpgsql immutable parallel safe as $$
      declare
        b bigint;
        buckets text[];
        keys bigint[] := '{}';
        c text; t text; x text;
      begin
        if price is null then return keys; end if;
        b := public.hm_price_bucket(price);
        buckets := case when price = b then array[b::text, '=' || b] else array[b::text] end;
        foreach c in array array_append(path::text[], '') loop
          foreach t in array array_append(terms::text[], '') loop
            if c <> '' or t <> '' then
              foreach x in array buckets loop
                keys := keys || public.hm_search_key(c, t, x);
              end loop;
            end if;
          end loop;
        end loop;
        return keys;
      end $$`);
    // the buckets a range [lo, hi] touches (either end may be open), its maximum as '=<edge>' when it is an edge
    this.addSql(`create or replace function hm_price_keys(lo bigint, hi bigint) returns text[] language sql immutable parallel safe as $$
      select coalesce(array_agg(case when b = hi then '=' || b else b::text end order by b), '{}')
        from (select 0::bigint b
              union all
              select (m * 10::numeric ^ k)::bigint from generate_series(0, 18) k, unnest(array[1, 2, 5]) m where m * 10::numeric ^ k <= 9223372036854775807) edges
       where b >= public.hm_price_bucket(greatest(coalesce(lo, 0), 0))
         and (hi is null or b <= public.hm_price_bucket(hi))
         and (lo is null or hi is null or lo <= hi) $$`);
    // a search's keys: its category (or none) with each of one kind's chosen terms (or none), in each bucket of the range
    this.addSql(`create or replace function hm_search_keys(category uuid, terms uuid[], lo bigint, hi bigint) returns bigint[] language sql immutable parallel safe as $$
      select coalesce(array_agg(public.hm_search_key(coalesce(category::text, ''), coalesce(t::text, ''), b)), '{}')
        from unnest(coalesce(terms, array[null::uuid])) t, unnest(public.hm_price_keys(lo, hi)) b $$`);
    this.addSql(`alter table listings add column search_keys bigint[] not null generated always as (public.hm_listing_search_keys(category_path, term_ids, price_base)) stored`);
    this.addSql(`create index listings_shop_search_keys_idx on listings using gin (search_keys) where on_sale`);
    // the planner's statistics of the new column (the keys it holds most), so it takes the index when it helps
    this.addSql(`analyze listings (search_keys)`);
  }
}
