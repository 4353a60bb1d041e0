import { Migration } from '@mikro-orm/migrations';

/**
 * A listing whose favourite count alone changed (a favourite saved or forgotten) notifies
 * `hm_reads_changed` with `<marketplace id> <listing id>`, so the API processes drop only the public
 * answers they keep that show that listing, and those ordered by favourite count
 * (apps/api/src/http/read-cache.ts), not every answer of the marketplace. Any other change to a
 * listing notifies the marketplace's id, as before (…_read_cache_notify). "Alone": the row with the
 * old favourite count put back is the old row (every column compared, generated ones too; each
 * column's type needs an equality, as every type of the table has).
 */
export class Migration20261201020000_listing_reads_notify extends Migration {
  override name = 'Migration20261201020000_listing_reads_notify';

  up(): void {
    this.addSql(`create or replace function hm_notify_listing_reads_changed() returns trigger language plpgsql as $$
declare
  was listings;
begin
  if tg_op = 'UPDATE' and new.favorite_count <> old.favorite_count then
    was := old;
    was.favorite_count := new.favorite_count;
    if was is not distinct from new then
      perform pg_notify('hm_reads_changed', new.marketplace_id::text || ' ' || new.id::text);
      return null;
    end if;
  end if;
  perform pg_notify('hm_reads_changed', (case when tg_op = 'DELETE' then old.marketplace_id else new.marketplace_id end)::text);
  return null;
end $$`);
    this.addSql(`drop trigger listings_reads_changed on listings`);
    this.addSql(`create trigger listings_reads_changed after insert or update or delete on listings for each row execute function hm_notify_listing_reads_changed()`);
  }

  override down(): void {
    this.addSql(`drop trigger listings_reads_changed on listings`);
    this.addSql(`create trigger listings_reads_changed after insert or update or delete on listings for each row execute function hm_notify_key_changed('marketplace_id', 'hm_reads_changed')`);
    this.addSql(`drop function hm_notify_listing_reads_changed()`);
  }
}
