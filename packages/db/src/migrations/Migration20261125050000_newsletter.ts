import { Migration } from '@mikro-orm/migrations';

/**
 * Newsletter sign-ups and the local contact list.
 *
 * `newsletter_subscribers` is our record of every sign-up (`POST /v1/newsletter/subscribers`): one
 * row per address and marketplace, written once (a repeat changes nothing), with what was sent and
 * when, and whether the `add-newsletter-contact` job has put the address on the contact list yet.
 * `newsletter_contacts` is the contact list itself when no provider is configured (the local
 * adapter of the contacts port); with Resend the list lives there instead, in the marketplace's
 * audience (`marketplaces.newsletter_audience_id`, set by the team in the console settings; test
 * and live deployments have their own databases, so the setting is per marketplace and mode).
 */
export class Migration20261125050000_newsletter extends Migration {
  override name = 'Migration20261125050000_newsletter';

  up(): void {
    this.addSql(`alter table marketplaces add column newsletter_audience_id text`);
    this.addSql(`create table newsletter_subscribers (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      email text not null,
      email_normalized text not null,
      first_name text not null default '',
      locale text not null default '',
      source text not null default '',
      created_at timestamptz not null,
      contact_provider text check (contact_provider in ('local', 'resend')),
      contact_id text,
      contact_added_at timestamptz,
      constraint newsletter_subscribers_email_unique unique (marketplace_id, email_normalized)
    )`);
    this.addSql(`create index newsletter_subscribers_pending_idx on newsletter_subscribers (marketplace_id, created_at) where contact_id is null`);
    this.addSql(`select hm_enable_tenant_rls('newsletter_subscribers')`);
    this.addSql(`create table newsletter_contacts (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      email text not null,
      first_name text not null default '',
      created_at timestamptz not null,
      constraint newsletter_contacts_email_unique unique (marketplace_id, email)
    )`);
    this.addSql(`select hm_enable_tenant_rls('newsletter_contacts')`);
  }
}
