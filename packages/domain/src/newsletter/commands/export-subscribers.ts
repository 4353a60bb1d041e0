import type { Marketplace } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import type { Contacts } from '../../core/ports/contacts.js';
import { allSubscribers } from '../newsletter.queries.js';

/**
 * `newsletter export --marketplace S`: every sign-up as recorded (address as typed, name, language,
 * source, when), and where it is on the contact list: the provider and contact id once the
 * `add-newsletter-contact` job has added it, null while it waits.
 */
// raw rows carry timestamps as the driver's text
const iso = (at: Date | string) => new Date(at).toISOString();

export async function exportSubscribers(em: EntityManager, m: Marketplace, contacts: Contacts) {
  const rows = await allSubscribers(em);
  return {
    contact_list: { provider: contacts.name, audience_id: contacts.needsAudience ? (m.newsletterAudienceId ?? null) : null },
    items: rows.map((r) => ({
      email: r.email,
      first_name: r.first_name,
      locale: r.locale,
      source: r.source,
      subscribed_at: iso(r.created_at),
      contact: r.contact_id ? { provider: r.contact_provider, id: r.contact_id, added_at: iso(r.contact_added_at!) } : null,
    })),
  };
}
