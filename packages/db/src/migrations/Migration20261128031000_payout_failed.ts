import { Migration } from '@mikro-orm/migrations';

/**
 * A payout the provider refused for good (invalid request, the account not able to take transfers,
 * the platform's balance short, a currency it will not take) is `failed` with the provider's reason,
 * instead of being retried for days; the team fixes the cause and retries it from the console.
 */
export class Migration20261128031000_payout_failed extends Migration {
  override name = 'Migration20261128031000_payout_failed';

  up(): void {
    this.addSql(`alter table payouts drop constraint payouts_status_check`);
    this.addSql(`alter table payouts add constraint payouts_status_check check (status in ('pending', 'paid', 'waiting_for_payout_details', 'held_for_chargeback', 'failed')), add column failure_reason text`);
    // the team's list of failed payouts
    this.addSql(`create index payouts_failed_idx on payouts (marketplace_id, updated_at desc) where status = 'failed'`);
  }

  override down(): void {
    this.addSql(`drop index payouts_failed_idx`);
    this.addSql(`alter table payouts drop constraint payouts_status_check, drop column failure_reason`);
    this.addSql(`alter table payouts add constraint payouts_status_check check (status in ('pending', 'paid', 'waiting_for_payout_details', 'held_for_chargeback'))`);
  }
}
