import { Migration } from '@mikro-orm/migrations';

/** The tables a public read (`publicRead` in the contract's meta) answers from, besides the marketplace itself. */
export const PUBLIC_READ_TABLES = ['listings', 'listing_images', 'categories', 'catalog_terms', 'sites', 'exchange_rates', 'price_factors', 'shop_counts', 'media', 'pages', 'search_words'] as const;

/**
 * The key cache's change triggers (…_key_cache_notify) grow a second channel: a change to what a
 * public read answers from notifies `hm_reads_changed` with the marketplace's id when its
 * transaction commits (NOTIFY is transactional: a rolled-back change notifies nothing), so every API
 * process drops the public answers it keeps for that marketplace (apps/api/src/http/read-cache.ts).
 * The same function, now with the channel as its second argument (default `hm_key_changed`, as
 * before) and `marketplace_id` read as a field rather than through the whole row as JSON (listings
 * are wide). Users only by their public name (sign-ins and profile edits change nothing public;
 * blocking a seller changes their listings' `seller_blocked`). Identical notifications of one
 * transaction are delivered once.
 */
export class Migration20261129030000_read_cache_notify extends Migration {
  override name = 'Migration20261129030000_read_cache_notify';

  up(): void {
    this.addSql(`create or replace function hm_notify_key_changed() returns trigger language plpgsql as $$
begin
  -- the marketplace's id is in the column named by the trigger's first argument; the channel is its second
  if tg_argv[0] = 'marketplace_id' then
    perform pg_notify(coalesce(tg_argv[1], 'hm_key_changed'), (case when tg_op = 'DELETE' then old.marketplace_id else new.marketplace_id end)::text);
  else
    perform pg_notify(coalesce(tg_argv[1], 'hm_key_changed'), to_jsonb(case when tg_op = 'DELETE' then old else new end) ->> tg_argv[0]);
  end if;
  return null;
end $$`);
    for (const table of PUBLIC_READ_TABLES) {
      this.addSql(`create trigger ${table}_reads_changed after insert or update or delete on ${table} for each row execute function hm_notify_key_changed('marketplace_id', 'hm_reads_changed')`);
    }
    this.addSql(`create trigger users_reads_changed after update of display_name or delete on users for each row execute function hm_notify_key_changed('marketplace_id', 'hm_reads_changed')`);
  }

  override down(): void {
    this.addSql(`drop trigger users_reads_changed on users`);
    for (const table of PUBLIC_READ_TABLES) this.addSql(`drop trigger ${table}_reads_changed on ${table}`);
    this.addSql(`create or replace function hm_notify_key_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('hm_key_changed', to_jsonb(old) ->> tg_argv[0]);
  return null;
end $$`);
  }
}
