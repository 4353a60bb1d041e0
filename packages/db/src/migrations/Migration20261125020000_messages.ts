import { Migration } from '@mikro-orm/migrations';

/**
 * Messages between a buyer (or someone asking) and a seller about a listing or an order, and between
 * a user and the marketplace's support. One conversation per pair and subject (partial unique
 * indexes), so a second "new conversation" continues the first. Message ids are integers increasing
 * within the marketplace (spec): drawn from `message_counters` by one upsert whose row lock is held
 * until commit, so ids are exact under concurrency and commit in the order they were drawn. Each
 * party keeps a read mark (the last message id it has read) and when it was last sent a notice email.
 */
export class Migration20261125020000_messages extends Migration {
  override name = 'Migration20261125020000_messages';

  up(): void {
    this.addSql(`create table conversations (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      kind text not null check (kind in ('listing', 'order', 'support')),
      user_a uuid not null references users(id),
      user_b uuid references users(id),
      listing_id uuid references listings(id),
      order_id uuid references orders(id),
      last_message text,
      last_message_at timestamptz not null,
      last_from_marketplace boolean not null default false,
      a_read_id bigint not null default 0,
      b_read_id bigint not null default 0,
      a_notified_at timestamptz,
      b_notified_at timestamptz,
      created_at timestamptz not null,
      constraint conversations_parties check ((kind = 'support') = (user_b is null) and user_a is distinct from user_b),
      constraint conversations_subject check (
        (kind = 'listing' and listing_id is not null and order_id is null)
        or (kind = 'order' and order_id is not null)
        or (kind = 'support' and listing_id is null and order_id is null))
    )`);
    // the pair and subject a conversation is continued by
    this.addSql(`create unique index conversations_listing_key on conversations (marketplace_id, listing_id, user_a) where kind = 'listing'`);
    this.addSql(`create unique index conversations_order_key on conversations (marketplace_id, order_id) where kind = 'order'`);
    this.addSql(`create unique index conversations_support_key on conversations (marketplace_id, user_a) where kind = 'support'`);
    // GET /v1/me/conversations (latest first) for either party; the console's support inbox
    this.addSql(`create index conversations_a_idx on conversations (marketplace_id, user_a, last_message_at desc, id desc)`);
    this.addSql(`create index conversations_b_idx on conversations (marketplace_id, user_b, last_message_at desc, id desc) where user_b is not null`);
    this.addSql(`create index conversations_support_idx on conversations (marketplace_id, last_message_at desc, id desc) where kind = 'support'`);

    this.addSql(`create table messages (
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      id bigint not null check (id >= 1),
      conversation_id uuid not null references conversations(id) on delete cascade,
      sender_id uuid references users(id),
      from_marketplace boolean not null,
      body text not null check (length(body) between 1 and 5000),
      at timestamptz not null,
      primary key (marketplace_id, id),
      constraint messages_sender check (from_marketplace = (sender_id is null))
    )`);
    this.addSql(`create index messages_conversation_idx on messages (marketplace_id, conversation_id, id)`);

    this.addSql(`create table message_counters (
      marketplace_id uuid primary key references marketplaces(id) on delete cascade,
      last_id bigint not null check (last_id >= 1)
    )`);

    for (const table of ['conversations', 'messages', 'message_counters']) this.addSql(`select hm_enable_tenant_rls('${table}')`);
  }
}
