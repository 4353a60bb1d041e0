import { ContactsError, type Contact, type Contacts } from '../../core/ports/contacts.js';

type ResendError = { statusCode: number | null; name: string; message: string };
const PAGE = 100; // Resend's largest page

/**
 * Resend contacts, through the official `resend` package. Resend keeps one contact per address for
 * the whole account and files it into audiences (since renamed segments), so an address is looked up
 * first: a new one is created inside the marketplace's audience, a known one (another marketplace's
 * subscriber, or a retry after a lost answer) is added to it. Adding is idempotent either way.
 * 429, 5xx, network failures and a 409 (two jobs creating the same address at once) are retryable.
 */
export function resendContacts(opts: { apiKey: string; baseUrl?: string }): Contacts {
  // The SDK loads on first use: processes that never add contacts do not pay for it.
  let client: Promise<import('resend').Resend> | undefined;
  const resend = () => (client ??= import('resend').then(({ Resend }) => new Resend(opts.apiKey, opts.baseUrl ? { baseUrl: opts.baseUrl } : undefined)));
  const fail = (what: string, error: ResendError): never => {
    const status = error.statusCode;
    const retryable = status === null || status === 409 || status === 429 || status >= 500;
    throw new ContactsError(`Resend ${what}: ${status ?? 'network error'} ${error.name}: ${error.message}`, retryable);
  };
  const audienceOf = (audienceId: string | null) => {
    if (!audienceId) throw new ContactsError('No Resend audience is set for this marketplace (console: marketplace update, settings {"newsletter_audience_id": "…"}).', false);
    return audienceId;
  };
  return {
    name: 'resend',
    needsAudience: true,
    async add(list, contact) {
      const segmentId = audienceOf(list.audienceId);
      const api = await resend();
      const found = await api.contacts.get({ email: contact.email });
      if (found.error && found.error.statusCode !== 404) fail('contact lookup', found.error);
      if (found.data) {
        const added = await api.contacts.segments.add({ email: contact.email, segmentId });
        if (added.error) fail('adding to the audience', added.error);
        return { contactId: found.data.id };
      }
      const created = await api.contacts.create({ email: contact.email, ...(contact.firstName ? { firstName: contact.firstName } : {}), unsubscribed: false, segments: [{ id: segmentId }] });
      if (created.error) fail('contact creation', created.error);
      if (!created.data?.id) throw new ContactsError('Resend answered without a contact id', true);
      return { contactId: created.data.id };
    },
    async list(list) {
      const segmentId = audienceOf(list.audienceId);
      const api = await resend();
      const all: Contact[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await api.contacts.list({ segmentId, limit: PAGE, ...(after ? { after } : {}) });
        if (page.error) fail('contact list', page.error);
        const data = page.data!.data;
        all.push(...data.map((c) => ({ id: c.id, email: c.email, firstName: c.first_name ?? '' })));
        if (!page.data!.has_more || data.length === 0) return all;
        after = data[data.length - 1]!.id;
      }
    },
  };
}
