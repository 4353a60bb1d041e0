import { Migration } from '@mikro-orm/migrations';

/**
 * A change to a marketplace or an API key notifies `hm_key_changed` with the marketplace's id when
 * its transaction commits (NOTIFY is transactional), so every API process drops what its key cache
 * holds for that marketplace (apps/api/src/http/key-change-listener.ts) instead of keeping it for up
 * to API_KEY_CACHE_MS. Identical notifications of one transaction are delivered once.
 */
export class Migration20261128070000_key_cache_notify extends Migration {
  override name = 'Migration20261128070000_key_cache_notify';

  up(): void {
    this.addSql(`create function hm_notify_key_changed() returns trigger language plpgsql as $$
begin
  -- the marketplace's id is in the column named by the trigger's argument
  perform pg_notify('hm_key_changed', to_jsonb(old) ->> tg_argv[0]);
  return null;
end $$`);
    this.addSql(`create trigger marketplaces_key_changed after update or delete on marketplaces for each row execute function hm_notify_key_changed('id')`);
    this.addSql(`create trigger api_keys_key_changed after update or delete on api_keys for each row execute function hm_notify_key_changed('marketplace_id')`);
  }

  override down(): void {
    this.addSql(`drop trigger api_keys_key_changed on api_keys`);
    this.addSql(`drop trigger marketplaces_key_changed on marketplaces`);
    this.addSql(`drop function hm_notify_key_changed()`);
  }
}
