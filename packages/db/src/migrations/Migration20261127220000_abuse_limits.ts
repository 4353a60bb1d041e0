import { Migration } from '@mikro-orm/migrations';

/**
 * `marketplaces.abuse_limits`: the per-user caps an operator may tune (orders awaiting payment per
 * buyer, messages per minute, new conversations per hour). Stored as sent; a missing member means
 * the default (`ABUSE_LIMIT_DEFAULTS` in the marketplace module), so `{}` is every default.
 */
export class Migration20261127220000_abuse_limits extends Migration {
  override name = 'Migration20261127220000_abuse_limits';

  up(): void {
    this.addSql(`alter table marketplaces add column abuse_limits jsonb not null default '{}'::jsonb`);
  }

  override down(): void {
    this.addSql(`alter table marketplaces drop column abuse_limits`);
  }
}
