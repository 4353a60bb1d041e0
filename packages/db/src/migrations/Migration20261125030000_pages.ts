import { Migration } from '@mikro-orm/migrations';

/**
 * Content pages and marketplace media. A page is one row per (slug, locale): the editor's draft
 * (`draft`: title, description, blocks with references) and the published copy (`published`, the
 * draft as it was at publish time) side by side, so editing never changes what the shop shows
 * until the next publish. Blocks are stored as the editor wrote them (ids and references) and
 * filled with live data when read. Preview tokens are stored as SHA-256 only. Media are images
 * uploaded by operators (not tied to a listing); their sizes live in the image store.
 */
export class Migration20261125030000_pages extends Migration {
  override name = 'Migration20261125030000_pages';

  up(): void {
    this.addSql(`create table media (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      alt text not null,
      format text not null,
      bytes integer not null,
      width integer not null,
      height integer not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index media_marketplace_idx on media (marketplace_id, created_at)`);
    this.addSql(`create table pages (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      slug text not null,
      locale text not null,
      draft jsonb not null,
      published jsonb,
      published_at timestamptz,
      preview_token_hash text,
      preview_expires_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint pages_slug_locale_unique unique (marketplace_id, slug, locale),
      constraint pages_published_check check ((published is null) = (published_at is null))
    )`);
    this.addSql(`create index pages_published_idx on pages (marketplace_id, slug) where published is not null`);
    this.addSql(`select hm_enable_tenant_rls('media')`);
    this.addSql(`select hm_enable_tenant_rls('pages')`);
  }
}
