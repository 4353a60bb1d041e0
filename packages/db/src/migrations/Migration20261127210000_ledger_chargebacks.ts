import { Migration } from '@mikro-orm/migrations';

/**
 * The ledger records every money movement of an order (docs/decisions.md, "Money rules"): besides
 * the charge, refunds, the transfer and the marketplace's parts, a dispute's withdrawal
 * (`chargeback`), its reinstatement when won (`chargeback_reversal`), the provider's dispute fee
 * when it reports one (`dispute_fee`) and what the platform carries of a refund made outside the
 * service beyond the seller's share (`carried`).
 */
const KINDS = ['charge', 'refund', 'transfer', 'commission', 'storage_fee', 'voucher', 'marketplace_shipping'];
const NEW = ['chargeback', 'chargeback_reversal', 'dispute_fee', 'carried'];
const list = (kinds: string[]) => kinds.map((k) => `'${k}'`).join(', ');

export class Migration20261127210000_ledger_chargebacks extends Migration {
  override name = 'Migration20261127210000_ledger_chargebacks';

  up(): void {
    this.addSql(`alter table ledger_entries drop constraint ledger_entries_kind_check`);
    this.addSql(`alter table ledger_entries add constraint ledger_entries_kind_check check (kind in (${list([...KINDS, ...NEW])}))`);
  }

  override down(): void {
    this.addSql(`alter table ledger_entries drop constraint ledger_entries_kind_check`);
    this.addSql(`alter table ledger_entries add constraint ledger_entries_kind_check check (kind in (${list(KINDS)}))`);
  }
}
