import { Migration } from '@mikro-orm/migrations';

/**
 * Marketplaces (tenants), API keys, catalogue (categories, terms), sites, exchange rates, idempotency records.
 * Every tenant table carries marketplace_id and every unique index starts with it.
 */
export class Migration20261122000000_foundation extends Migration {
  override name = 'Migration20261122000000_foundation';

  up(): void {
    this.addSql(`create extension if not exists unaccent`);
    this.addSql(`create extension if not exists pg_trgm`);
    // unaccent() is only STABLE (it reads a dictionary); pinning the dictionary makes it safe to index.
    this.addSql(`create or replace function hm_fold(text) returns text
      language sql immutable parallel safe strict
      as $$ select lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$`);

    this.addSql(`create table marketplaces (
      id uuid primary key,
      name text not null,
      slug text not null,
      currencies text[] not null default '{}',
      locales text[] not null,
      term_kinds jsonb not null default '[]',
      listing_rules jsonb not null,
      shipping jsonb not null,
      commission_percent double precision not null default 0,
      storefront_url text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint marketplaces_slug_unique unique (slug),
      constraint marketplaces_commission_range check (commission_percent >= 0 and commission_percent <= 100)
    )`);

    this.addSql(`create table api_keys (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      kind text not null check (kind in ('secret', 'publishable')),
      mode text not null check (mode in ('test', 'live')),
      token_hash text not null,
      last4 text not null,
      revoked_at timestamptz,
      created_at timestamptz not null,
      constraint api_keys_token_unique unique (marketplace_id, token_hash)
    )`);
    this.addSql(`create index api_keys_token_hash_idx on api_keys (token_hash)`);

    this.addSql(`create table categories (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      slug text not null,
      names jsonb not null,
      parent_id uuid references categories(id) on delete restrict,
      position integer not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint categories_slug_unique unique (marketplace_id, slug),
      constraint categories_not_own_parent check (parent_id is distinct from id)
    )`);
    this.addSql(`create index categories_parent_idx on categories (marketplace_id, parent_id, position)`);

    this.addSql(`create table catalog_terms (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      kind text not null,
      slug text not null,
      names jsonb not null,
      descriptions jsonb not null default '{}',
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint catalog_terms_slug_unique unique (marketplace_id, kind, slug)
    )`);

    this.addSql(`create table sites (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      kind text not null check (kind in ('showroom', 'warehouse')),
      name text not null,
      line1 text not null,
      postal_code text not null,
      city text not null,
      country text not null,
      active boolean not null default true,
      buyer_pickup boolean not null default false,
      opening_hours text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index sites_marketplace_idx on sites (marketplace_id, created_at)`);

    this.addSql(`create table exchange_rates (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      date date not null,
      base text not null,
      quote text not null,
      rate double precision not null check (rate > 0),
      created_at timestamptz not null,
      constraint exchange_rates_unique unique (marketplace_id, base, quote, date)
    )`);

    this.addSql(`create table idempotency_keys (
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      scope text not null,
      key uuid not null,
      fingerprint text not null,
      state text not null check (state in ('running', 'done')),
      response_status integer,
      response_headers jsonb,
      response_body bytea,
      created_at timestamptz not null default now(),
      locked_at timestamptz not null default now(),
      primary key (marketplace_id, scope, key)
    )`);
    this.addSql(`create index idempotency_keys_created_idx on idempotency_keys (created_at)`);
  }
}
