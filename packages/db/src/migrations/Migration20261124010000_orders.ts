import { Migration } from '@mikro-orm/migrations';

/**
 * Checkout and orders: vouchers, orders (one listing with a quantity, priced at placing and never
 * repriced), and the delivery-booking counters. Every table is a tenant table with row-level security.
 */
export class Migration20261124010000_orders extends Migration {
  override name = 'Migration20261124010000_orders';

  up(): void {
    this.addSql(`create table vouchers (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      code text not null check (length(code) between 1 and 40),
      percent double precision check (percent > 0 and percent <= 100),
      amount bigint check (amount >= 1),
      currency text,
      min_total bigint check (min_total >= 0),
      starts_at timestamptz,
      ends_at timestamptz,
      max_uses integer check (max_uses >= 1),
      once_per_buyer boolean not null default false,
      created_at timestamptz not null,
      constraint vouchers_kind check ((percent is null) <> (amount is null)),
      constraint vouchers_currency check ((amount is null and min_total is null) or currency is not null),
      constraint vouchers_window check (starts_at is null or ends_at is null or starts_at < ends_at)
    )`);
    // codes are case-insensitive: one voucher per folded code and marketplace
    this.addSql(`create unique index vouchers_code_idx on vouchers (marketplace_id, lower(code))`);

    this.addSql(`create table orders (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      listing_id uuid not null references listings(id),
      buyer_id uuid not null references users(id),
      seller_id uuid not null references users(id),
      status text not null check (status in ('pending_payment', 'purchased', 'delivered', 'received', 'disputed', 'canceled', 'payment_expired')),
      state_entered_at timestamptz not null,
      quantity integer not null check (quantity between 1 and 100),
      currency text not null,
      total bigint not null check (total >= 0),
      line_items jsonb not null,
      delivery jsonb not null default '{}',
      fulfilment text not null check (fulfilment in ('seller', 'marketplace')),
      buyer_zone text,
      voucher_id uuid references vouchers(id),
      history jsonb not null default '[]',
      payment_provider text,
      payment_id text,
      payment_client_secret text,
      payment_due_at timestamptz not null,
      payment_cancel_pending boolean not null default false,
      refund_id text,
      refunded_at timestamptz,
      booked_date date,
      booked_window text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint orders_booking_pair check ((booked_date is null) = (booked_window is null))
    )`);
    // GET /v1/me/orders, newest first, as buyer or as seller (optionally by state)
    this.addSql(`create index orders_buyer_idx on orders (marketplace_id, buyer_id, created_at desc, id desc)`);
    this.addSql(`create index orders_seller_idx on orders (marketplace_id, seller_id, created_at desc, id desc)`);
    // "reserved by someone else" and voucher uses (a voucher's uses are its orders whose payment did not expire)
    this.addSql(`create index orders_pending_listing_idx on orders (marketplace_id, listing_id) where status = 'pending_payment'`);
    // a timer's run also moves the other orders overdue in its state (payment windows ending together)
    this.addSql(`create index orders_state_idx on orders (marketplace_id, status, state_entered_at)`);
    // payments whose window ended, still to cancel at the provider (the cancel-payments job works through them)
    this.addSql(`create index orders_cancel_pending_idx on orders (marketplace_id, id) where payment_cancel_pending`);
    this.addSql(`create index orders_voucher_idx on orders (marketplace_id, voucher_id, buyer_id) where voucher_id is not null`);

    // bookings per delivery window, counted by a conditional update so a full window is exact under concurrency
    this.addSql(`create table booking_slots (
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      date date not null,
      window_key text not null,
      booked integer not null default 0 check (booked >= 0),
      primary key (marketplace_id, date, window_key)
    )`);

    for (const table of ['vouchers', 'orders', 'booking_slots']) this.addSql(`select hm_enable_tenant_rls('${table}')`);
  }
}
