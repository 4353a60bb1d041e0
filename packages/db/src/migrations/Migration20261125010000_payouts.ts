import { Migration } from '@mikro-orm/migrations';

/**
 * Seller payouts: one payout account per seller and marketplace (the provider's connected account
 * and its setup status as its last `account.updated` event said), one payout per order (its figures
 * fixed when the order is placed; its status moved by the payout machine), the order's chargeback
 * and outside refunds, and an append-only ledger of every money movement (a trigger refuses UPDATE
 * and DELETE, so a row once written is history). Tenant tables with row-level security.
 */
export class Migration20261125010000_payouts extends Migration {
  override name = 'Migration20261125010000_payouts';

  up(): void {
    this.addSql(`create table payout_accounts (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      user_id uuid not null references users(id),
      provider text not null check (provider in ('local', 'stripe')),
      provider_account_id text,
      country text not null check (country ~ '^[A-Z]{2}$'),
      business_type text not null check (business_type in ('individual', 'company')),
      status text not null default 'none' check (status in ('none', 'action_required', 'pending', 'ready')),
      due jsonb not null default '[]',
      -- when the provider made the event the status is from: an older event arriving late changes nothing
      status_event_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint payout_accounts_user_unique unique (marketplace_id, user_id)
    )`);
    this.addSql(`create unique index payout_accounts_provider_idx on payout_accounts (marketplace_id, provider, provider_account_id) where provider_account_id is not null`);

    this.addSql(`create table payouts (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      order_id uuid not null references orders(id) on delete cascade,
      seller_id uuid not null references users(id),
      currency text not null,
      subtotal bigint not null check (subtotal >= 0),
      commission bigint not null check (commission >= 0),
      storage_fee bigint not null check (storage_fee >= 0),
      storage_months integer not null check (storage_months >= 0),
      amount bigint not null check (amount >= 0),
      marketplace_shipping bigint not null default 0 check (marketplace_shipping >= 0),
      voucher bigint not null default 0 check (voucher >= 0),
      status text not null check (status in ('pending', 'paid', 'waiting_for_payout_details', 'held_for_chargeback')),
      transfer_id text,
      paid_at timestamptz,
      history jsonb not null default '[]',
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint payouts_order_unique unique (marketplace_id, order_id)
    )`);
    // an account becoming ready pays the seller's payouts that waited for it
    this.addSql(`create index payouts_seller_status_idx on payouts (marketplace_id, seller_id, status)`);

    this.addSql(`alter table orders add column chargeback jsonb, add column refunded_outside bigint not null default 0 check (refunded_outside >= 0)`);
    this.addSql(`create index orders_chargeback_idx on orders (marketplace_id, created_at desc) where chargeback is not null`);

    this.addSql(`create table ledger_entries (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      order_id uuid not null references orders(id),
      kind text not null check (kind in ('charge', 'refund', 'transfer', 'commission', 'storage_fee', 'voucher', 'marketplace_shipping')),
      amount bigint not null check (amount >= 0),
      currency text not null,
      reference text not null,
      created_at timestamptz not null,
      constraint ledger_entries_unique unique (marketplace_id, order_id, kind, reference)
    )`);
    this.addSql(`create index ledger_entries_order_idx on ledger_entries (marketplace_id, order_id)`);
    this.addSql(`create function hm_ledger_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'ledger_entries is append-only: % refused', tg_op using errcode = 'restrict_violation';
      end $$`);
    this.addSql(`create trigger ledger_entries_append_only before update or delete on ledger_entries for each row execute function hm_ledger_append_only()`);
    this.addSql(`create trigger ledger_entries_no_truncate before truncate on ledger_entries for each statement execute function hm_ledger_append_only()`);

    for (const table of ['payout_accounts', 'payouts']) this.addSql(`select hm_enable_tenant_rls('${table}')`);
    this.addSql(`select hm_enable_tenant_rls('ledger_entries', 'marketplace_id', 'select, insert')`);
  }
}
