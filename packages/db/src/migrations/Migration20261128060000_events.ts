import { Migration } from '@mikro-orm/migrations';

/**
 * Events (an outbox written in the transaction of the change) and the webhook endpoints they are
 * pushed to. An event's `sequence` is drawn from `event_counters` like message ids: one upsert whose
 * row lock is held until commit, so sequences are gapless per marketplace in commit order (a feed
 * reader passing `after` never skips one that commits later). Endpoint secrets are sealed
 * (AES-256-GCM under a key outside the database); deliveries and their attempts are the delivery log.
 */
export class Migration20261128060000_events extends Migration {
  override name = 'Migration20261128060000_events';

  up(): void {
    this.addSql(`create table events (
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      sequence bigint not null check (sequence >= 1),
      id text not null,
      type text not null,
      data jsonb not null,
      created_at timestamptz not null,
      primary key (marketplace_id, sequence)
    )`);
    this.addSql(`create unique index events_id_key on events (marketplace_id, id)`);
    // the 30-day purge
    this.addSql(`create index events_created_idx on events (created_at)`);
    this.addSql(`create table event_counters (
      marketplace_id uuid primary key references marketplaces(id) on delete cascade,
      last_sequence bigint not null check (last_sequence >= 1)
    )`);

    this.addSql(`create table webhook_endpoints (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      url text not null,
      events text[] not null,
      enabled boolean not null default true,
      secret bytea not null,
      previous_secret bytea,
      previous_secret_until timestamptz,
      failing_since timestamptz,
      disabled_reason text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index webhook_endpoints_marketplace_idx on webhook_endpoints (marketplace_id, created_at)`);

    this.addSql(`create table webhook_deliveries (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      endpoint_id uuid not null references webhook_endpoints(id) on delete cascade,
      event_id text not null,
      status text not null check (status in ('pending', 'delivered', 'failed')),
      attempts int not null default 0,
      next_attempt_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index webhook_deliveries_endpoint_idx on webhook_deliveries (marketplace_id, endpoint_id, created_at desc)`);

    this.addSql(`create table webhook_attempts (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      delivery_id uuid not null references webhook_deliveries(id) on delete cascade,
      endpoint_id uuid not null references webhook_endpoints(id) on delete cascade,
      event_id text not null,
      attempt int not null,
      status_code int,
      duration_ms int not null,
      error text,
      response text,
      at timestamptz not null
    )`);
    this.addSql(`create index webhook_attempts_endpoint_idx on webhook_attempts (marketplace_id, endpoint_id, at desc)`);

    for (const table of ['events', 'event_counters', 'webhook_endpoints', 'webhook_deliveries', 'webhook_attempts']) this.addSql(`select hm_enable_tenant_rls('${table}')`);
  }

  override down(): void {
    this.addSql(`drop table webhook_attempts, webhook_deliveries, webhook_endpoints, event_counters, events`);
  }
}
