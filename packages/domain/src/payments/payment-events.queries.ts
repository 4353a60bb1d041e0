import type { EntityManager } from '@hm/db/orm';
import { crossTenantSql, tenantSql } from '@hm/db/sql';

/**
 * The providers' inbox (`payment_events`, migration `…_payment_events`). Events are written across
 * tenants (a webhook learns the marketplace from the event itself) and handled within their
 * marketplace; events of no marketplace of ours are read and closed across tenants.
 */
export interface PaymentEventRow {
  id: string;
  marketplace_id: string | null;
  provider: 'local' | 'stripe';
  provider_event_id: string;
  type: string;
  payment_id: string | null;
  order_id: string | null;
  data: Record<string, unknown>;
  provider_created_at: Date;
  created_at: Date;
  handled_at: Date | null;
  outcome: string | null;
}

export type NewPaymentEvent = Pick<PaymentEventRow, 'id' | 'provider' | 'provider_event_id' | 'type' | 'payment_id' | 'order_id' | 'data' | 'provider_created_at' | 'created_at'> & {
  /** the marketplace the event names; stored only when it exists here */
  claimed_marketplace_id: string | null;
  /** the connected account of a seller's account event (Stripe Connect): its marketplace is the payout account's */
  account_id: string | null;
};

/**
 * Stores an event unless the provider's id is stored already: the new row's id, or undefined for a
 * duplicate. Its marketplace and order: those it names when the marketplace exists here, else those
 * of an earlier event of the same payment (a dispute names only the payment, not our metadata), else
 * that of the seller's payout account the event comes from (a connected account's `payout.failed`).
 */
export async function insertPaymentEvent(em: EntityManager, e: NewPaymentEvent): Promise<string | undefined> {
  const [row] = await crossTenantSql(em)<{ id: string }>`
    with named as (select m.id as marketplace_id, ${e.order_id}::uuid as order_id from marketplaces m where m.id = ${e.claimed_marketplace_id}::uuid),
         earlier as (select pe.marketplace_id, pe.order_id from payment_events pe
                      where pe.provider = ${e.provider} and pe.payment_id = ${e.payment_id} and pe.marketplace_id is not null
                      order by pe.provider_created_at limit 1),
         by_account as (select pa.marketplace_id, null::uuid as order_id from payout_accounts pa
                         where pa.provider = ${e.provider} and pa.provider_account_id = ${e.account_id}::text limit 1),
         owner as (select * from (select 1 as rank, * from named union all select 2, * from earlier union all select 3, * from by_account) o order by rank limit 1)
    insert into payment_events (id, marketplace_id, provider, provider_event_id, type, payment_id, order_id, data, provider_created_at, created_at)
    select ${e.id}, owner.marketplace_id, ${e.provider}, ${e.provider_event_id}, ${e.type}, ${e.payment_id}, owner.order_id,
           ${JSON.stringify(e.data)}::jsonb, ${e.provider_created_at}, ${e.created_at}
      from (select 1) one left join owner on true
    on conflict on constraint payment_events_event_unique do nothing
    returning id`;
  return row?.id;
}

type RawRow = Omit<PaymentEventRow, 'provider_created_at' | 'created_at' | 'handled_at'> & Record<'provider_created_at' | 'created_at' | 'handled_at', string | Date | null>;

/** Raw SQL hands timestamps back as text: the row with dates. */
const toRow = (r: RawRow | undefined): PaymentEventRow | undefined =>
  r && { ...r, provider_created_at: new Date(r.provider_created_at!), created_at: new Date(r.created_at!), handled_at: r.handled_at === null ? null : new Date(r.handled_at) };

/** The event with this id (any marketplace's, or none's). */
export async function findPaymentEvent(em: EntityManager, id: string): Promise<PaymentEventRow | undefined> {
  const [row] = await crossTenantSql(em)<RawRow>`select * from payment_events where id = ${id}`;
  return toRow(row);
}

/** The marketplace's event, locked for this transaction while not handled yet (undefined once handled). */
export async function lockUnhandledPaymentEvent(em: EntityManager, id: string): Promise<PaymentEventRow | undefined> {
  const sql = tenantSql(em);
  const [row] = await sql<RawRow>`select * from payment_events where marketplace_id = ${sql.marketplace} and id = ${id} and handled_at is null for update`;
  return toRow(row);
}

export async function markPaymentEventHandled(em: EntityManager, id: string, outcome: string, now: Date): Promise<void> {
  const sql = tenantSql(em);
  await sql`update payment_events set handled_at = ${now}, outcome = ${outcome} where marketplace_id = ${sql.marketplace} and id = ${id}`;
}

/** Closes an event that names no marketplace of ours (nothing can act on it); false when it was closed already. */
export async function closeUnscopedPaymentEvent(em: EntityManager, id: string, outcome: string, now: Date): Promise<boolean> {
  const rows = await crossTenantSql(em)`update payment_events set handled_at = ${now}, outcome = ${outcome} where marketplace_id is null and id = ${id} and handled_at is null returning id`;
  return rows.length > 0;
}
