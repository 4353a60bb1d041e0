/** Entry point of `@hm/domain/newsletter`: the contacts port and its adapters (the job is in `@hm/domain/tasks`). */
export { type Contact, type ContactList, type Contacts, ContactsError, type NewContact } from './../core/ports/contacts.js';
export { localContacts } from './adapters/local-contacts.js';
export { resendContacts } from './adapters/resend-contacts.js';
export { exportSubscribers } from './commands/export-subscribers.js';
export { addNewsletterContactTask, queuePendingContacts, subscribe } from './commands/subscribe.js';
export { ZSubscribeInput } from './newsletter.schema.js';
