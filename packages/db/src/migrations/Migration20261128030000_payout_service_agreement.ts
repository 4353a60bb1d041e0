import { Migration } from '@mikro-orm/migrations';

/**
 * `marketplaces.payout_service_agreement`: the Stripe Connect service agreement of a seller in the
 * platform's country — `full` (Stripe's default: the account gets `card_payments` with `transfers`)
 * or `recipient` (transfers only; the seller's relationship is with the platform). A seller in
 * another country is always under `recipient` (Stripe pays out cross-border only under it), so this
 * is the marketplace's business choice only at home. `marketplaces.alert_email`: where the team is
 * told of what needs it (a payout the provider refused for good); null: the log only.
 */
export class Migration20261128030000_payout_service_agreement extends Migration {
  override name = 'Migration20261128030000_payout_service_agreement';

  up(): void {
    this.addSql(`alter table marketplaces add column payout_service_agreement text not null default 'full' check (payout_service_agreement in ('full', 'recipient')), add column alert_email text`);
  }

  override down(): void {
    this.addSql(`alter table marketplaces drop column payout_service_agreement, drop column alert_email`);
  }
}
