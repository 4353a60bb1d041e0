import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';
import type { VoucherUses } from './voucher-rules.js';

/** The voucher with this code, compared case-insensitively (the unique index is on `lower(code)`). */
export async function voucherIdByCode(em: EntityManager, code: string): Promise<string | undefined> {
  const sql = tenantSql(em);
  const [row] = await sql<{ id: string }>`select id from vouchers where marketplace_id = ${sql.marketplace} and lower(code) = lower(${code})`;
  return row?.id;
}

/**
 * A voucher's uses: its orders whose payment did not expire (an expired payment gives its use back),
 * and how many of those are the buyer's. Exact when read under a lock of the voucher row.
 */
export async function voucherUses(em: EntityManager, voucherId: string, buyerId: string): Promise<VoucherUses> {
  const sql = tenantSql(em);
  const [row] = await sql<VoucherUses>`select count(*)::int as "all", (count(*) filter (where buyer_id = ${buyerId}))::int as mine
     from orders where marketplace_id = ${sql.marketplace} and voucher_id = ${voucherId} and status <> 'payment_expired'`;
  return row!;
}

/** Uses of each of these vouchers (the console's list). */
export async function usesOf(em: EntityManager, voucherIds: string[]): Promise<Map<string, number>> {
  if (voucherIds.length === 0) return new Map();
  const sql = tenantSql(em);
  const rows = await sql<{ voucher_id: string; uses: number }>`select voucher_id, count(*)::int as uses from orders
     where marketplace_id = ${sql.marketplace} and voucher_id = any(${`{${voucherIds.join(',')}}`}::uuid[]) and status <> 'payment_expired' group by voucher_id`;
  return new Map(rows.map((r) => [r.voucher_id, r.uses]));
}
