import { Migration } from '@mikro-orm/migrations';

/**
 * Transfer reversals (docs/decisions.md, "Money rules"): money the buyer got back after the seller
 * was paid is taken back from the seller's transfer.
 * - ledger kinds `transfer_reversal` (money back from the seller's connected account) and
 *   `refund_failed` (a refund the provider could not make: the money stayed with the platform);
 * - `payouts.transfer_amount`: the amount of a transfer whose outcome is not known yet (the provider
 *   did not answer), kept so a retry asks for the same transfer under the same idempotency key;
 * - `payouts.reversal_id` / `reversal_amount`: a reversal started and not recorded yet, likewise.
 */
const KINDS = ['charge', 'refund', 'transfer', 'commission', 'storage_fee', 'voucher', 'marketplace_shipping', 'chargeback', 'chargeback_reversal', 'dispute_fee', 'carried'];
const NEW = ['transfer_reversal', 'refund_failed'];
const list = (kinds: string[]) => kinds.map((k) => `'${k}'`).join(', ');

export class Migration20261128020000_transfer_reversals extends Migration {
  override name = 'Migration20261128020000_transfer_reversals';

  up(): void {
    this.addSql(`alter table ledger_entries drop constraint ledger_entries_kind_check`);
    this.addSql(`alter table ledger_entries add constraint ledger_entries_kind_check check (kind in (${list([...KINDS, ...NEW])}))`);
    this.addSql(`alter table payouts add column transfer_amount bigint null, add column reversal_id text null, add column reversal_amount bigint null`);
  }

  override down(): void {
    this.addSql(`alter table payouts drop column transfer_amount, drop column reversal_id, drop column reversal_amount`);
    this.addSql(`alter table ledger_entries drop constraint ledger_entries_kind_check`);
    this.addSql(`alter table ledger_entries add constraint ledger_entries_kind_check check (kind in (${list(KINDS)}))`);
  }
}
