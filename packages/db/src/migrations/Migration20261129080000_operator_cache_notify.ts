import { Migration } from '@mikro-orm/migrations';

/**
 * The API keeps an operator session's check (its session, operator and marketplace rows) per process
 * for up to a second, like API keys: a sign-out, and any change to an operator (role, removal,
 * two-factor codes), notify `hm_key_changed` with the marketplace's id at commit, so every API
 * process drops that marketplace's remembered sessions at once. A session's use (its idle expiry,
 * moved at most once a minute) does not notify.
 */
export class Migration20261129080000_operator_cache_notify extends Migration {
  override name = 'Migration20261129080000_operator_cache_notify';

  up(): void {
    this.addSql(`create trigger operators_key_changed after update or delete on operators for each row execute function hm_notify_key_changed('marketplace_id')`);
    this.addSql(`create trigger operator_sessions_ended after update on operator_sessions for each row when (old.ended_at is distinct from new.ended_at) execute function hm_notify_key_changed('marketplace_id')`);
    this.addSql(`create trigger operator_sessions_deleted after delete on operator_sessions for each row execute function hm_notify_key_changed('marketplace_id')`);
  }

  override down(): void {
    this.addSql(`drop trigger operator_sessions_deleted on operator_sessions`);
    this.addSql(`drop trigger operator_sessions_ended on operator_sessions`);
    this.addSql(`drop trigger operators_key_changed on operators`);
  }
}
