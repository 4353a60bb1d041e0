import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';

/**
 * Delivery bookings per window (`booking_slots`, no entity: counters only). A booking takes a
 * place by one conditional upsert, so a window's `per_window` limit holds under concurrency.
 */

/** Takes a place in the window; false when it is full (`perWindow` 0: no limit). */
export async function takeSlot(em: EntityManager, date: string, window: string, perWindow: number): Promise<boolean> {
  const sql = tenantSql(em);
  const taken = await sql`insert into booking_slots (marketplace_id, date, window_key, booked) values (${sql.marketplace}, ${date}, ${window}, 1)
     on conflict (marketplace_id, date, window_key) do update set booked = booking_slots.booked + 1
     where ${perWindow}::int = 0 or booking_slots.booked < ${perWindow}::int returning booked`;
  return taken.length > 0;
}

/** Gives a place back (a booking changed or its order canceled). */
export async function releaseBookedSlot(em: EntityManager, date: string, window: string): Promise<void> {
  const sql = tenantSql(em);
  await sql`update booking_slots set booked = booked - 1 where marketplace_id = ${sql.marketplace} and date = ${date} and window_key = ${window} and booked > 0`;
}

/** Bookings per `<date> <window>` between two dates (inclusive). */
export async function bookedCounts(em: EntityManager, from: string, to: string): Promise<Map<string, number>> {
  const sql = tenantSql(em);
  const rows = await sql<{ date: string; window_key: string; booked: number }>`select to_char(date, 'YYYY-MM-DD') as date, window_key, booked from booking_slots
     where marketplace_id = ${sql.marketplace} and date between ${from} and ${to}`;
  return new Map(rows.map((r) => [`${r.date} ${r.window_key}`, r.booked]));
}
