/**
 * api-vs-bare's data beyond bench/seed.ts's marketplace, inserted in SQL before either server is
 * asked (both read the same rows).
 */

/** Three ready photos for each listing, and every fourth listing stored at a showroom (a site on its page). */
export async function addPhotosAndShowroom(sql: { execute(sql: string, params?: unknown[]): Promise<unknown> }, marketplaceId: string) {
  await sql.execute(
    `insert into listing_images (id, marketplace_id, created_at, listing_id, position, status, format, bytes, width, height, updated_at)
     select gen_random_uuid(), l.marketplace_id, now(), l.id, p, 'ready', 'jpeg', 250000, 1600, 1200, now() from listings l, generate_series(0, 2) p`,
  );
  await sql.execute(
    `insert into sites (id, marketplace_id, created_at, kind, name, line1, postal_code, city, country, active, buyer_pickup, opening_hours, updated_at)
     values (gen_random_uuid(), ?, now(), 'showroom', 'Bench showroom', 'Storgatan 1', '111 22', 'Stockholm', 'SE', true, true, 'Mon–Fri 10–18', now())`,
    [marketplaceId],
  );
  await sql.execute(
    `update listings l set site_id = s.id, custody = 'stored' from sites s where s.marketplace_id = l.marketplace_id and ('x' || substr(l.id::text, 1, 8))::bit(32)::int % 4 = 0`,
  );
}

export async function addConsoleRows(db: { query(sql: string, params: unknown[]): Promise<unknown> }, marketplaceId: string) {
  // The back office's orders, support and audit pages on full pages (both sides read the same rows): 48
  // paid orders of the signed-up users, each with its seller's payout, a support conversation of each
  // user, and 48 approvals from the command line in the audit trail.
  await db.query(
    `insert into orders (id, marketplace_id, listing_id, buyer_id, seller_id, status, state_entered_at, quantity, currency, total, line_items, delivery, fulfilment, history, payment_provider, payment_id, payment_due_at, created_at, updated_at)
     select gen_random_uuid(), l.marketplace_id, l.id, u.id, l.seller_id, 'purchased', now(), 1, l.price_currency, l.price_amount,
       jsonb_build_array(jsonb_build_object('code', 'item', 'label', l.title, 'unit_price', l.price_amount, 'quantity', 1, 'amount', l.price_amount)),
       '{"method": "pickup"}', 'seller',
       jsonb_build_array(jsonb_build_object('transition', 'place', 'from', '(new)', 'to', 'pending_payment', 'actor', 'buyer', 'at', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
       'local', 'pay_bench_' || l.n, now() + interval '1 hour', now() - l.n * interval '1 minute', now()
     from (select *, row_number() over (order by id) as n from listings where marketplace_id = $1 and price_amount is not null limit 48) l
     join (select id, row_number() over (order by id) - 1 as k from users where marketplace_id = $1 and email like 'bench%@example.com') u on u.k = l.n % 30`,
    [marketplaceId],
  );
  await db.query(
    `insert into payouts (id, marketplace_id, order_id, seller_id, currency, subtotal, commission, storage_fee, storage_months, amount, status, created_at, updated_at)
     select gen_random_uuid(), marketplace_id, id, seller_id, currency, total, total / 10, 0, 0, total - total / 10, 'pending', now(), now() from orders where marketplace_id = $1`,
    [marketplaceId],
  );
  await db.query(
    `insert into conversations (id, marketplace_id, kind, user_a, last_message, last_message_at, created_at)
     select gen_random_uuid(), marketplace_id, 'support', id, 'Where is my parcel?', now() - row_number() over (order by id) * interval '1 minute', now()
     from users where marketplace_id = $1 and email like 'bench%@example.com'`,
    [marketplaceId],
  );
  await db.query(
    `insert into audit_entries (id, marketplace_id, created_at, actor_type, action, target_type, target_id, data, request_id)
     select gen_random_uuid(), $1::uuid, now() - n * interval '1 minute', 'cli', 'listing.approve', 'listing', l.id::text, jsonb_build_object('id', l.id), 'req_bench_' || n
     from (select id, row_number() over (order by id) as n from listings where marketplace_id = $1 limit 48) l`,
    [marketplaceId],
  );
}
