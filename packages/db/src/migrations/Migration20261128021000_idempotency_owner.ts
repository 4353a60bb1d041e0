import { Migration } from '@mikro-orm/migrations';

/**
 * `idempotency_keys.owner`: the API process whose request holds a running key (its process lease,
 * a session advisory lock held while the process lives). A retry takes over a key whose owner's
 * lease is free within seconds of a crash, instead of after the 60 s timeout.
 */
export class Migration20261128021000_idempotency_owner extends Migration {
  override name = 'Migration20261128021000_idempotency_owner';

  up(): void {
    this.addSql(`alter table idempotency_keys add column owner text null`);
  }

  override down(): void {
    this.addSql(`alter table idempotency_keys drop column owner`);
  }
}
