import { Migration } from '@mikro-orm/migrations';

/** Listings and their photos (selling). Prices are integer minor units with their currency. */
export class Migration20261122020000_listings extends Migration {
  override name = 'Migration20261122020000_listings';

  up(): void {
    this.addSql(`create table listings (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      seller_id uuid not null references users(id) on delete cascade,
      status text not null check (status in ('draft', 'pending_valuation', 'valuation_offered', 'pending_approval', 'published', 'closed', 'denied')),
      title text not null default '',
      description text not null default '',
      locale text not null,
      attributes jsonb not null default '{}',
      category_id uuid references categories(id) on delete set null,
      terms jsonb not null default '{}',
      price_amount bigint check (price_amount >= 0),
      price_currency text,
      price_schedule jsonb,
      schedule_started_at timestamptz,
      offer_amount bigint check (offer_amount >= 1),
      offer_currency text,
      offer_note text,
      offer_schedule jsonb,
      countered_at timestamptz,
      review_note text,
      stock integer not null default 1 check (stock >= 0),
      favorite_count integer not null default 0 check (favorite_count >= 0),
      location jsonb not null default '{}',
      delivery jsonb not null default '{}',
      shipping_size text,
      custody text not null default 'seller' check (custody in ('seller', 'collecting', 'stored')),
      site_id uuid references sites(id) on delete restrict,
      wants_storage boolean not null default false,
      stored_at timestamptz,
      commission_percent double precision check (commission_percent >= 0 and commission_percent <= 100),
      ever_on_sale boolean not null default false,
      published_at timestamptz,
      closed_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint listings_price_pair check ((price_amount is null) = (price_currency is null)),
      constraint listings_offer_pair check ((offer_amount is null) = (offer_currency is null))
    )`);
    // "every status, latest change first" for a seller's own listings, keyset-paged
    this.addSql(`create index listings_seller_idx on listings (marketplace_id, seller_id, updated_at desc, id desc)`);
    this.addSql(`create index listings_status_idx on listings (marketplace_id, status)`);

    this.addSql(`create table listing_images (
      id uuid primary key,
      marketplace_id uuid not null references marketplaces(id) on delete cascade,
      listing_id uuid not null references listings(id) on delete cascade,
      position integer not null,
      status text not null check (status in ('processing', 'ready', 'failed')),
      format text not null,
      bytes integer not null,
      width integer,
      height integer,
      error text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index listing_images_listing_idx on listing_images (marketplace_id, listing_id, position)`);
  }
}
