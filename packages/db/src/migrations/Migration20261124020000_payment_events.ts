import { Migration } from '@mikro-orm/migrations';

/**
 * The payment providers' inbox: every event a provider sends (Stripe's webhook, the sandbox's
 * confirmations), stored once by the provider's event id and handed to the `handle-payment-event`
 * job. An event names its marketplace only through the payment's metadata, and a provider may send
 * events this database knows nothing of (a Stripe account shared with another deployment, a payment
 * made outside the service): those are stored too, with `marketplace_id` null, and ignored. Events
 * arrive before anyone knows their tenant, so they are written across tenants; row-level security
 * still keeps each marketplace to its own rows, and rows of no marketplace to cross-tenant work.
 * The unique key includes `marketplace_id` like every other (tenant distribution), with NULLS NOT
 * DISTINCT so events of no marketplace are stored once too; an event's marketplace follows from its
 * content, so one event id never arrives under two marketplaces.
 */
export class Migration20261124020000_payment_events extends Migration {
  override name = 'Migration20261124020000_payment_events';

  up(): void {
    this.addSql(`create table payment_events (
      id uuid primary key,
      marketplace_id uuid references marketplaces(id) on delete cascade,
      provider text not null check (provider in ('local', 'stripe')),
      provider_event_id text not null,
      type text not null,
      payment_id text,
      order_id uuid,
      data jsonb not null,
      provider_created_at timestamptz not null,
      created_at timestamptz not null,
      handled_at timestamptz,
      outcome text,
      constraint payment_events_event_unique unique nulls not distinct (marketplace_id, provider, provider_event_id)
    )`);
    this.addSql(`create index payment_events_order_idx on payment_events (marketplace_id, order_id, provider_created_at) where order_id is not null`);
    this.addSql(`create index payment_events_payment_idx on payment_events (marketplace_id, payment_id) where payment_id is not null`);
    this.addSql(`select hm_enable_tenant_rls('payment_events')`);
  }
}
