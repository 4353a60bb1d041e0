import type { Contacts } from '../../core/ports/contacts.js';
import { insertLocalContact, localContacts as selectLocalContacts } from '../newsletter.queries.js';

/** The offline contact list: rows of `newsletter_contacts` in the marketplace's own database. */
export function localContacts(): Contacts {
  return {
    name: 'local',
    needsAudience: false,
    async add(list, contact) {
      return { contactId: await insertLocalContact(list.em, contact) };
    },
    list: (list) => selectLocalContacts(list.em),
  };
}
