import { uuidv7, type EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';
import type { Contact, NewContact } from '../core/ports/contacts.js';

/** `newsletter_subscribers` (sign-ups) and `newsletter_contacts` (the local contact list): rows only, no entities. */

export interface SubscriberRow {
  id: string;
  email: string;
  email_normalized: string;
  first_name: string;
  locale: string;
  source: string;
  created_at: Date | string;
  contact_provider: string | null;
  contact_id: string | null;
  contact_added_at: Date | string | null;
}

/** Records a sign-up; its id when the address is new, undefined when it was already signed up (then nothing changes). */
export async function insertSubscriber(em: EntityManager, s: { email: string; emailNormalized: string; firstName: string; locale: string; source: string; at: Date }): Promise<string | undefined> {
  const sql = tenantSql(em);
  const [row] = await sql<{ id: string }>`insert into newsletter_subscribers (id, marketplace_id, email, email_normalized, first_name, locale, source, created_at)
     values (${uuidv7()}, ${sql.marketplace}, ${s.email}, ${s.emailNormalized}, ${s.firstName}, ${s.locale}, ${s.source}, ${s.at})
     on conflict (marketplace_id, email_normalized) do nothing returning id`;
  return row?.id;
}

export async function findSubscriber(em: EntityManager, id: string): Promise<SubscriberRow | undefined> {
  const sql = tenantSql(em);
  const [row] = await sql<SubscriberRow>`select * from newsletter_subscribers where marketplace_id = ${sql.marketplace} and id = ${id}`;
  return row;
}

export async function markContactAdded(em: EntityManager, id: string, provider: string, contactId: string, at: Date): Promise<void> {
  const sql = tenantSql(em);
  await sql`update newsletter_subscribers set contact_provider = ${provider}, contact_id = ${contactId}, contact_added_at = ${at}
     where marketplace_id = ${sql.marketplace} and id = ${id}`;
}

/** Every sign-up, oldest first (the console's export). */
export function allSubscribers(em: EntityManager): Promise<SubscriberRow[]> {
  const sql = tenantSql(em);
  return sql<SubscriberRow>`select * from newsletter_subscribers where marketplace_id = ${sql.marketplace} order by created_at, id`;
}

/** Sign-ups still waiting for the contact list (e.g. until the team sets a Resend audience). */
export async function pendingSubscriberIds(em: EntityManager): Promise<string[]> {
  const sql = tenantSql(em);
  const rows = await sql<{ id: string }>`select id from newsletter_subscribers where marketplace_id = ${sql.marketplace} and contact_id is null order by created_at`;
  return rows.map((r) => r.id);
}

/** The local list: adds the address once; the contact's id whether new or known. */
export async function insertLocalContact(em: EntityManager, c: NewContact): Promise<string> {
  const sql = tenantSql(em);
  const [row] = await sql<{ id: string }>`insert into newsletter_contacts (id, marketplace_id, email, first_name, created_at)
     values (${uuidv7()}, ${sql.marketplace}, ${c.email}, ${c.firstName}, now())
     on conflict (marketplace_id, email) do update set email = excluded.email returning id`;
  return row!.id;
}

export async function localContacts(em: EntityManager): Promise<Contact[]> {
  const sql = tenantSql(em);
  const rows = await sql<{ id: string; email: string; first_name: string }>`select id, email, first_name from newsletter_contacts
     where marketplace_id = ${sql.marketplace} order by created_at, id`;
  return rows.map((r) => ({ id: r.id, email: r.email, firstName: r.first_name }));
}
