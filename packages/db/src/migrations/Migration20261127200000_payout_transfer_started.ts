import { Migration } from '@mikro-orm/migrations';

/**
 * `payouts.transfer_started_at`: the pay-seller job marks a payout's transfer in flight (under the
 * payout's row lock, committed) before it calls the provider outside any transaction, and records
 * the transfer in a second transaction. A chargeback arriving meanwhile sees the transfer started
 * and leaves the payout to the team, as for a paid one, instead of holding money already leaving.
 */
export class Migration20261127200000_payout_transfer_started extends Migration {
  override name = 'Migration20261127200000_payout_transfer_started';

  up(): void {
    this.addSql(`alter table payouts add column transfer_started_at timestamptz null`);
  }

  override down(): void {
    this.addSql(`alter table payouts drop column transfer_started_at`);
  }
}
