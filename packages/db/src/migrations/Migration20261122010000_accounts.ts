import { Migration } from '@mikro-orm/migrations';

/**
 * Accounts: users, sessions, emailed-link tokens, the email outbox/log and rate-limit counters.
 * Secrets (session and link tokens, passwords) are stored only as hashes.
 */
export class Migration20261122010000_accounts extends Migration {
  override name = 'Migration20261122010000_accounts';

  up(): void {
    this.addSql(`create table users (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      email text not null,
      email_normalized text not null,
      email_verified_at timestamptz,
      password_hash text,
      first_name text not null default '',
      last_name text not null default '',
      display_name text not null default '',
      bio text not null default '',
      phone text not null default '',
      locale text not null default '',
      blocked_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint users_email_unique unique (marketplace_id, email_normalized),
      constraint users_email_normalized check (email_normalized = lower(email))
    )`);

    this.addSql(`create table sessions (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      token_hash text not null,
      last_used_at timestamptz not null,
      expires_at timestamptz not null,
      ended_at timestamptz,
      created_at timestamptz not null,
      constraint sessions_token_unique unique (marketplace_id, token_hash)
    )`);
    this.addSql(`create index sessions_user_idx on sessions (marketplace_id, user_id) where ended_at is null`);

    this.addSql(`create table email_tokens (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      purpose text not null check (purpose in ('sign_in', 'verify_email', 'reset_password', 'welcome')),
      token_hash text not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null,
      constraint email_tokens_token_unique unique (marketplace_id, token_hash)
    )`);
    this.addSql(`create index email_tokens_user_idx on email_tokens (marketplace_id, user_id, purpose)`);

    this.addSql(`create table emails (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      user_id uuid references users(id) on delete set null,
      "to" text not null,
      template text not null,
      locale text not null,
      subject text not null,
      text text,
      html text,
      links jsonb not null default '[]',
      status text not null check (status in ('queued', 'sent', 'failed')),
      provider text,
      provider_id text,
      error text,
      sent_at timestamptz,
      created_at timestamptz not null
    )`);
    this.addSql(`create index emails_to_idx on emails (marketplace_id, lower("to"), created_at desc)`);
    this.addSql(`create index emails_recent_idx on emails (marketplace_id, created_at desc)`);

    // Fixed-window counters (sign-in failures, emailed links): one row per marketplace, bucket and subject.
    this.addSql(`create table rate_limits (
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      bucket text not null,
      subject text not null,
      window_start timestamptz not null,
      count integer not null,
      primary key (marketplace_id, bucket, subject)
    )`);
    this.addSql(`create index rate_limits_window_idx on rate_limits (window_start)`);
  }
}
