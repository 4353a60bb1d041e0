import type { EntityManager } from '@hm/db/orm';

/**
 * Contacts port: the marketplace's newsletter contact list. The `add-newsletter-contact` job hands
 * each new sign-up to one of its adapters: Resend's contacts (one audience per marketplace and mode,
 * set by the team in the console settings) when RESEND_API_KEY is set, else a list in our own
 * Postgres. Both pass `adapters/contacts.contract.test.ts`.
 */
export interface ContactList {
  marketplaceId: string;
  /** the provider's list (a Resend audience, now called a segment); the local list needs none */
  audienceId: string | null;
  /**
   * The marketplace's tenant entity manager. The local list lives in this database, so it writes
   * on the caller's connection (and under its row-level security); a provider ignores it.
   */
  em: EntityManager;
}

export interface NewContact {
  /** already normalised (trimmed, lower case) by the caller */
  email: string;
  firstName: string;
}

export interface Contact {
  id: string;
  email: string;
  firstName: string;
}

export interface Contacts {
  readonly name: 'local' | 'resend';
  /** whether a list needs `audienceId` (without one the job waits for the team to set it) */
  readonly needsAudience: boolean;
  /** Puts the address on the list, or finds it there already: the contact's id either way. Rejects with ContactsError. */
  add(list: ContactList, contact: NewContact): Promise<{ contactId: string }>;
  /** Every contact on the list (the console's export check, and the contract test). */
  list(list: ContactList): Promise<Contact[]>;
}

/** `retryable`: worth another attempt later (provider 5xx or 429, network, a race); otherwise the job gives up on the address. */
export class ContactsError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ContactsError';
  }
}
