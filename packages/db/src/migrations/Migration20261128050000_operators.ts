import { Migration } from '@mikro-orm/migrations';

/**
 * The back-office console (issue 26): operators per marketplace (role admin or viewer, argon2id
 * password, optional TOTP), their sessions and invitations (tokens stored as SHA-256 only), and the
 * audit trail of every console write and sign-in: append-only like the ledger (a trigger refuses
 * UPDATE, DELETE and TRUNCATE; hm_app may only read and insert).
 */
export class Migration20261128050000_operators extends Migration {
  override name = 'Migration20261128050000_operators';

  up(): void {
    this.addSql(`create table operators (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      email text not null,
      role text not null check (role in ('admin', 'viewer')),
      password_hash text,
      totp_secret text,
      totp_enabled_at timestamptz,
      totp_last_step bigint,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create unique index operators_email_unique on operators (marketplace_id, lower(email))`);

    this.addSql(`create table operator_sessions (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      operator_id uuid not null references operators(id) on delete cascade,
      token_hash text not null,
      created_at timestamptz not null,
      last_used_at timestamptz not null,
      expires_at timestamptz not null,
      ended_at timestamptz
    )`);
    this.addSql(`create index operator_sessions_operator_idx on operator_sessions (marketplace_id, operator_id)`);
    // a token is looked up before its marketplace is known (it carries none): by its hash alone
    this.addSql(`create unique index operator_sessions_token_unique on operator_sessions (marketplace_id, token_hash)`);
    this.addSql(`create index operator_sessions_token_idx on operator_sessions (token_hash)`);

    this.addSql(`create table operator_invitations (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      operator_id uuid not null references operators(id) on delete cascade,
      token_hash text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`);
    this.addSql(`create unique index operator_invitations_token_unique on operator_invitations (marketplace_id, token_hash)`);
    this.addSql(`create index operator_invitations_token_idx on operator_invitations (token_hash)`);

    this.addSql(`create table audit_entries (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      created_at timestamptz not null,
      actor_type text not null check (actor_type in ('operator', 'cli')),
      actor_id uuid,
      actor_email text,
      action text not null,
      target_type text not null,
      target_id text not null,
      data jsonb not null default '{}',
      request_id text not null
    )`);
    this.addSql(`create index audit_entries_at_idx on audit_entries (marketplace_id, created_at desc, id desc)`);
    this.addSql(`create function hm_audit_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_entries is append-only: % refused', tg_op using errcode = 'restrict_violation';
      end $$`);
    this.addSql(`create trigger audit_entries_append_only before update or delete on audit_entries for each row execute function hm_audit_append_only()`);
    this.addSql(`create trigger audit_entries_no_truncate before truncate on audit_entries for each statement execute function hm_audit_append_only()`);

    for (const table of ['operators', 'operator_sessions', 'operator_invitations']) this.addSql(`select hm_enable_tenant_rls('${table}')`);
    this.addSql(`select hm_enable_tenant_rls('audit_entries', 'marketplace_id', 'select, insert')`);
  }

  override down(): void {
    this.addSql(`drop table audit_entries, operator_invitations, operator_sessions, operators`);
    this.addSql(`drop function hm_audit_append_only()`);
  }
}
