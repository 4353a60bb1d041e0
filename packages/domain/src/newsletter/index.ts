/** Entry point of `@hm/domain/newsletter`: the contacts port and its adapters (the job is in `@hm/domain/tasks`). */
export { ContactsError, type Contact, type ContactList, type Contacts, type NewContact } from './contacts.js';
export { localContacts } from './adapters/local-contacts.js';
export { resendContacts } from './adapters/resend-contacts.js';
