import type { EntityManager } from '@hm/db/orm';
import { uuidv7 } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';

/**
 * The ledger (`ledger_entries`, migration `…_payouts`): every money movement of an order, in the
 * order's currency, append-only (the database refuses UPDATE and DELETE). A movement is written once
 * by (order, kind, reference): a job that runs twice writes nothing new.
 */
export const LEDGER_KINDS = ['charge', 'refund', 'transfer', 'commission', 'storage_fee', 'voucher', 'marketplace_shipping', 'chargeback', 'chargeback_reversal', 'dispute_fee', 'carried', 'transfer_reversal', 'refund_failed'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export interface LedgerEntry {
  orderId: string;
  kind: LedgerKind;
  /** minor units, never negative (the kind says which way it goes) */
  amount: number;
  currency: string;
  /** the provider's id (payment, refund, transfer, event) or `payout` for the split of a payout */
  reference: string;
}

/** Appends the rows not written before (by order, kind and reference); how many were new. */
export async function appendLedger(em: EntityManager, entries: readonly LedgerEntry[], now: Date): Promise<number> {
  const sql = tenantSql(em);
  let added = 0;
  for (const e of entries) {
    const rows = await sql`insert into ledger_entries (id, marketplace_id, order_id, kind, amount, currency, reference, created_at)
              values (${uuidv7()}, ${sql.marketplace}, ${e.orderId}, ${e.kind}, ${e.amount}, ${e.currency}, ${e.reference}, ${now})
              on conflict on constraint ledger_entries_unique do nothing returning id`;
    added += rows.length;
  }
  return added;
}

/** Per order with ledger rows: its sums by kind and how many transfers it has. */
export interface LedgerSums {
  order_id: string;
  status: string;
  payout_status: string | null;
  currency: string;
  sums: Partial<Record<LedgerKind, number>>;
  transfers: number;
}

export async function ledgerSums(em: EntityManager): Promise<LedgerSums[]> {
  const sql = tenantSql(em);
  const rows = await sql<{ order_id: string; status: string; payout_status: string | null; currency: string; kind: LedgerKind; total: string; n: number }>`
    select l.order_id, o.status, p.status as payout_status, o.currency, l.kind, sum(l.amount) as total, count(*)::int as n
      from ledger_entries l join orders o on o.id = l.order_id and o.marketplace_id = l.marketplace_id
      left join payouts p on p.order_id = l.order_id and p.marketplace_id = l.marketplace_id
     where l.marketplace_id = ${sql.marketplace}
     group by l.order_id, o.status, p.status, o.currency, l.kind
     order by l.order_id, l.kind`;
  const byOrder = new Map<string, LedgerSums>();
  for (const r of rows) {
    const o = byOrder.get(r.order_id) ?? { order_id: r.order_id, status: r.status, payout_status: r.payout_status, currency: r.currency, sums: {}, transfers: 0 };
    o.sums[r.kind] = Number(r.total);
    if (r.kind === 'transfer') o.transfers = r.n;
    byOrder.set(r.order_id, o);
  }
  return [...byOrder.values()];
}

/** One ledger row as the team reads it (the order page): what moved, how much, the provider's reference, when. */
export interface LedgerRow {
  id: string;
  kind: LedgerKind;
  amount: number;
  currency: string;
  reference: string;
  created_at: string;
}

/** An order's ledger rows, oldest first (read-only: the table refuses changes). */
export async function ledgerRows(em: EntityManager, orderId: string): Promise<LedgerRow[]> {
  const sql = tenantSql(em);
  const rows = await sql<{ id: string; kind: LedgerKind; amount: string | number; currency: string; reference: string; created_at: Date | string }>`
    select id, kind, amount, currency, reference, created_at from ledger_entries
     where marketplace_id = ${sql.marketplace} and order_id = ${orderId}
     order by created_at, id`;
  return rows.map((r) => ({ id: r.id, kind: r.kind, amount: Number(r.amount), currency: r.currency, reference: r.reference, created_at: new Date(r.created_at).toISOString() }));
}

/** What the order's ledger says moved of the seller's money. */
export async function sellerSums(em: EntityManager, orderId: string) {
  const sql = tenantSql(em);
  const rows = await sql<{ kind: string; total: string }>`
    select kind, sum(amount) as total from ledger_entries
     where marketplace_id = ${sql.marketplace} and order_id = ${orderId}
       and kind in ('transfer', 'transfer_reversal', 'carried', 'chargeback', 'chargeback_reversal')
     group by kind`;
  const sum = (kind: string) => Number(rows.find((r) => r.kind === kind)?.total ?? 0);
  return { transferred: sum('transfer') - sum('transfer_reversal'), carried: sum('carried'), chargedBack: sum('chargeback') - sum('chargeback_reversal') };
}

/** A payout to a seller's bank that failed at the provider (`payout.failed` on their connected account), in the last 30 days. */
export interface FailedBankPayout {
  payout_id: string;
  account: string;
  seller_id: string | null;
  amount: number;
  currency: string;
  failure_code: string | null;
  at: string;
}

export async function failedBankPayouts(em: EntityManager, now: Date): Promise<FailedBankPayout[]> {
  const sql = tenantSql(em);
  const rows = await sql<{ data: Record<string, unknown>; seller_id: string | null; at: Date | string }>`
    select e.data, pa.user_id as seller_id, e.provider_created_at as at from payment_events e
      left join payout_accounts pa on pa.marketplace_id = e.marketplace_id and pa.provider = e.provider and pa.provider_account_id = e.data->>'account'
     where e.marketplace_id = ${sql.marketplace} and e.type = 'payout.failed' and e.provider_created_at > ${new Date(now.getTime() - 30 * 86_400_000)}
     order by e.provider_created_at`;
  return rows.map((r) => ({
    payout_id: String(r.data.id ?? ''),
    account: String(r.data.account ?? ''),
    seller_id: r.seller_id,
    amount: Number(r.data.amount ?? 0),
    currency: String(r.data.currency ?? '').toUpperCase(),
    failure_code: typeof r.data.failure_code === 'string' ? r.data.failure_code : null,
    at: new Date(r.at).toISOString(),
  }));
}
