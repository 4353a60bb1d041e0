import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { MarketplaceSchema } from '@hm/db/entities';
import { createOrm, tenantEm, type MikroORM } from '@hm/db/orm';
import { createTestDatabase } from '@hm/db/testing';
import { startResendTestServer, type ResendTestServer } from '../../testing/index.js';
import { ContactsError, type ContactList, type Contacts } from '../../core/ports/contacts.js';
import { localContacts } from './local-contacts.js';
import { resendContacts } from './resend-contacts.js';

/**
 * One contract for both contact-list adapters: an address is added once however often it is sent
 * (the same contact id back), names arrive intact, two marketplaces' lists stay apart, the whole
 * list comes back (across pages), and failures say whether a retry makes sense. Resend runs through
 * the real `resend` package against a local server speaking Resend's HTTP API (the one the mail
 * adapter's contract uses); the local list against a real Postgres.
 */
interface Fixture {
  contacts: Contacts;
  /** a fresh list of its own (a marketplace, and for Resend an audience) */
  newList(): Promise<ContactList>;
  /** make the next call fail the way a passing outage would, where the adapter can */
  breakTransiently?(): void;
  /** make the next call fail for good, where the adapter can */
  breakPermanently?(): void;
}

let orm: MikroORM;
const servers: ResendTestServer[] = [];
beforeAll(async () => {
  orm = await createOrm(await createTestDatabase(inject('adminDatabaseUrl')), { poolMax: 2 });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await orm.close(true);
});

const rules = { min_images: 1, require_approval: false, require_category: false, required_terms: [], valuations: false };
let n = 0;
async function marketplace(): Promise<string> {
  const em = orm.em.fork();
  const m = em.create(MarketplaceSchema, { name: `m${++n}`, slug: `m-${n}-${Date.now()}`, currencies: ['EUR'], locales: ['en'], termKinds: [], listingRules: rules, shipping: { sizes: [], zones: [] }, commissionPercent: 0 });
  await em.flush();
  return m.id;
}

const adapters: [string, () => Promise<Fixture>][] = [
  [
    'local list in Postgres',
    async () => ({
      contacts: localContacts(),
      async newList() {
        const id = await marketplace();
        return { marketplaceId: id, audienceId: null, em: tenantEm(orm, id) };
      },
    }),
  ],
  [
    'resend',
    async () => {
      // pages of 2, so listing a list of 3 or more walks Resend's `after` cursor
      const server = await startResendTestServer({ pageSize: 2 });
      servers.push(server);
      return {
        contacts: resendContacts({ apiKey: server.apiKey, baseUrl: server.url }),
        async newList() {
          const id = await marketplace();
          return { marketplaceId: id, audienceId: server.createSegment(`m${id}`), em: tenantEm(orm, id) };
        },
        breakTransiently: () => server.failNext(1, [500, 503, 429][Math.floor(Math.random() * 3)]!),
        breakPermanently: () => server.failNext(1, 422),
      };
    },
  ],
];

describe.each(adapters)('contacts adapter contract: %s', (_name, make) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await make();
  });

  test('adds an address with its first name (non-ASCII intact) and lists it', async () => {
    const list = await f.newList();
    const { contactId } = await f.contacts.add(list, { email: 'åsa.öberg@example.com', firstName: 'Åsa' });
    expect(contactId).toMatch(/\S{8,}/);
    expect(await f.contacts.list(list)).toEqual([{ id: contactId, email: 'åsa.öberg@example.com', firstName: 'Åsa' }]);
  });

  test('adding the same address again gives the same contact and no second entry', async () => {
    const list = await f.newList();
    const first = await f.contacts.add(list, { email: 'bo@example.com', firstName: 'Bo' });
    const again = await f.contacts.add(list, { email: 'bo@example.com', firstName: 'Bo' });
    expect(again.contactId).toBe(first.contactId);
    expect((await f.contacts.list(list)).map((c) => c.email)).toEqual(['bo@example.com']);
  });

  test("two marketplaces' lists stay apart, even for the same address", async () => {
    const a = await f.newList();
    const b = await f.newList();
    await f.contacts.add(a, { email: 'shared@example.com', firstName: '' });
    await f.contacts.add(a, { email: 'only-a@example.com', firstName: '' });
    await f.contacts.add(b, { email: 'shared@example.com', firstName: '' });
    expect((await f.contacts.list(a)).map((c) => c.email)).toEqual(['shared@example.com', 'only-a@example.com']);
    expect((await f.contacts.list(b)).map((c) => c.email)).toEqual(['shared@example.com']);
  });

  test('lists every contact, in the order they joined, across pages', async () => {
    const list = await f.newList();
    const emails = Array.from({ length: 5 }, (_, i) => `reader${i}@example.com`);
    for (const email of emails) await f.contacts.add(list, { email, firstName: '' });
    expect((await f.contacts.list(list)).map((c) => c.email)).toEqual(emails);
  });

  test('a passing outage is a retryable ContactsError; the next add works', async () => {
    if (!f.breakTransiently) return expect(f.contacts.name).toBe('local');
    const list = await f.newList();
    f.breakTransiently();
    const err = await f.contacts.add(list, { email: 'later@example.com', firstName: '' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContactsError);
    expect((err as ContactsError).retryable).toBe(true);
    await f.contacts.add(list, { email: 'later@example.com', firstName: '' });
    expect((await f.contacts.list(list)).map((c) => c.email)).toEqual(['later@example.com']);
  });

  test('a refusal is a permanent ContactsError', async () => {
    if (!f.breakPermanently) return expect(f.contacts.name).toBe('local');
    const list = await f.newList();
    f.breakPermanently();
    const err = await f.contacts.add(list, { email: 'refused@example.com', firstName: '' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ContactsError', retryable: false });
  });
});

test('resend: a list without an audience is refused for good (the job waits for the team instead of calling)', async () => {
  const server = await startResendTestServer();
  servers.push(server);
  const contacts = resendContacts({ apiKey: server.apiKey, baseUrl: server.url });
  expect(contacts.needsAudience).toBe(true);
  const id = await marketplace();
  const err = await contacts.add({ marketplaceId: id, audienceId: null, em: tenantEm(orm, id) }, { email: 'x@example.com', firstName: '' }).catch((e: unknown) => e);
  expect(err).toMatchObject({ name: 'ContactsError', retryable: false });
  expect(server.contactCreations()).toBe(0);
});

test('resend: an address another marketplace already added is filed into this audience without a second contact', async () => {
  const server = await startResendTestServer();
  servers.push(server);
  const contacts = resendContacts({ apiKey: server.apiKey, baseUrl: server.url });
  const [a, b] = [await marketplace(), await marketplace()];
  const [sa, sb] = [server.createSegment('a'), server.createSegment('b')];
  const first = await contacts.add({ marketplaceId: a, audienceId: sa, em: tenantEm(orm, a) }, { email: 'both@example.com', firstName: 'B' });
  const second = await contacts.add({ marketplaceId: b, audienceId: sb, em: tenantEm(orm, b) }, { email: 'both@example.com', firstName: 'B' });
  expect(second.contactId).toBe(first.contactId);
  expect(server.contactCreations()).toBe(1);
  expect(server.segment(sb).map((c) => c.email)).toEqual(['both@example.com']);
});
