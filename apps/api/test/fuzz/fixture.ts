import { expect } from 'vitest';
import { emailsTo, jpeg, makeSellingMarketplace, signUp, tokenOf, uploadPhoto, type Harness } from '../harness.js';
import { buildOrders, type OrdersWorld } from './orders-fixture.js';

/**
 * The world a fuzz run acts in, made the way a storefront would make it, so that authorised
 * requests get past authentication and lookups into the handlers: two marketplaces, a signed-in
 * seller with listings in every state (drafts, on sale, offered a valuation, closed, with photos),
 * another user's listings, favourites, real cursors and unused emailed tokens.
 */
export interface World {
  secret: string;
  publishable: string;
  /** the other marketplace: its keys, a user of it, its ids */
  foreign: { secret: string; publishable: string; session: string; listing: string; image: string; category: string; term: string; user: string };
  /** the main user (a seller with a password) */
  alice: { session: string; id: string; email: string; password: string };
  /** another seller of the same marketplace */
  bob: { session: string; id: string; listings: string[] };
  /** sessions that DELETE /sessions/current may end: one per request, put back unless it ended; then `ended` */
  spareSessions: string[];
  endedSession: string;
  /** the main user's listings, one pool per kind of use, so that one operation does not spoil another's targets */
  listings: Record<'onSale' | 'publishable' | 'editable' | 'deletable' | 'closeable' | 'acceptable' | 'counterable' | 'closed', string[]>;
  /** photos: reordered only (the order must name every photo), uploaded to, deleted */
  images: { order: { listing: string; ids: string[] }; upload: string; delete: { listing: string; ids: string[] } };
  categories: string[];
  terms: { kind: string; slug: string; id: string }[];
  /** real cursors with the query that made them (a forged cursor needs the same query to get past the fingerprint check) */
  cursors: { path: string; query: string; cursor: string }[];
  tokens: { signInLink: string; verification: string; passwordReset: string };
  /** a small real JPEG for photo uploads */
  photo: Buffer;
  /** client secrets of sandbox payments of this marketplace, for the payments test helper */
  paymentSecrets: string[];
  /** content pages: published slugs, a live preview token of `home`, uploaded media (and the other marketplace's) */
  pages: { slugs: string[]; previewToken: string; media: string[]; foreignMedia: string };
  /** the main user's orders (bought from bob) */
  orders: OrdersWorld;
  /** the main user's conversations (asking bob about a listing, with support) */
  conversations: string[];
  /** makes fresh objects of the main user (the contract run's targets, once the fuzz has used the pools) */
  make: {
    draft(title: string): Promise<string>;
    onSale(title: string): Promise<string>;
    /** a processed photo of the listing */
    upload(listing: string): Promise<string>;
    /** a draft with a photo, published asking for a valuation, with the team's offer */
    offered(title: string): Promise<string>;
  };
}

export async function buildWorld(h: Harness): Promise<World> {
  const m = await makeSellingMarketplace(h, 'fuzz', { min_images: 0, valuations: true });
  const other = await makeSellingMarketplace(h, 'other', { min_images: 0 });
  const photo = await jpeg(320, 240);
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, key: string, session?: string, payload?: unknown) => {
    const res = await h.request({ method, url, key, session, ...(payload !== undefined ? { payload: payload as object } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.body ? res.json() : undefined;
  };
  const content = (title: string, market = m) => ({
    title,
    description: 'Oak, 1962.',
    price: { amount: 150000, currency: 'SEK' },
    category_id: market.category.chairs,
    terms: { brand: market.brand.artek },
    attributes: { condition: 'good' },
    location: { city: 'Stockholm', country: 'SE', postal_code: '11646' },
    delivery: { pickup: true },
  });
  const draft = async (session: string, title: string, market = m) => (await call('POST', '/v1/me/listings', market.secret, session, content(title, market))).id as string;
  const onSale = async (session: string, title: string, market = m) => {
    h.clock.advance(1000);
    const id = await draft(session, title, market);
    await call('POST', `/v1/me/listings/${id}/publish`, market.secret, session, {});
    return id;
  };

  const upload = async (market: typeof m, session: string, id: string) => {
    const res = await uploadPhoto(h, market.secret, session, id, photo);
    expect(res.statusCode, res.body).toBe(202);
    return res.json().id as string;
  };

  const password = 'correct horse battery';
  const alice = await signUp(h, m.secret, { email: 'alice@example.com', password, first_name: 'Alice' });
  const bob = await signUp(h, m.secret, { email: 'bob@example.com' });
  const dave = await signUp(h, m.secret, { email: 'dave@example.com', password });
  const carl = await signUp(h, other.secret, { email: 'carl@example.com' });

  const n = async (k: number, make: (i: number) => Promise<string>) => {
    const made: string[] = [];
    for (let i = 0; i < k; i++) made.push(await make(i));
    return made;
  };
  const onSaleIds = await n(3, (i) => onSale(alice.token, ['Café table', 'School chair', 'Bar stool'][i]!));
  const pools: World['listings'] = {
    onSale: onSaleIds,
    publishable: await n(3, (i) => draft(alice.token, `Ready chair ${i}`)),
    editable: [await draft(alice.token, 'Edited chair'), await onSale(alice.token, 'Edited table')],
    deletable: await n(3, (i) => draft(alice.token, `Deleted chair ${i}`)),
    closeable: await n(2, (i) => onSale(alice.token, `Closed chair ${i}`)),
    // a valuation needs a processed photo; then the team offers a price
    acceptable: [await draft(alice.token, 'Cabinet')],
    counterable: [await draft(alice.token, 'Desk')],
    closed: [await onSale(alice.token, 'Closed bench')],
  };
  await call('POST', `/v1/me/listings/${pools.closed[0]}/close`, m.secret, alice.token);
  const offered = [...pools.acceptable, ...pools.counterable];
  for (const id of offered) await upload(m, alice.token, id);
  // photos: one listing whose photos are only reordered, one that only receives uploads, one whose photos are deleted
  const [orderListing, uploadListing, deleteListing] = [await draft(alice.token, 'Reordered'), await draft(alice.token, 'Uploaded to'), await draft(alice.token, 'Photos deleted')];
  const orderIds = await n(3, () => upload(m, alice.token, orderListing));
  const deleteIds = await n(3, () => upload(m, alice.token, deleteListing));
  const bobListings = [await onSale(bob.token, 'Lounge chair'), await onSale(bob.token, 'Ekström lamp')];
  const foreignListing = await onSale(carl.token, 'Foreign chair', other);
  const foreignImage = await upload(other, carl.token, foreignListing);
  await h.runJobs();
  const offer = async (id: string) => {
    await call('POST', `/v1/me/listings/${id}/publish`, m.secret, alice.token, { ask_valuation: true });
    await h.console.listings.offer({ id, amount: 120000, currency: 'SEK', note: 'Good condition.' });
  };
  for (const id of offered) await offer(id);

  for (const id of bobListings) await h.request({ method: 'PUT', url: `/v1/me/favorites/${id}`, key: m.secret, session: alice.token });
  await h.request({ method: 'PUT', url: `/v1/me/favorites/${onSaleIds[0]}`, key: m.secret, session: alice.token });

  // a cursor of every paged list, each from a page of one item
  const cursors: World['cursors'] = [];
  const cursorOf = async (path: string, query: string, key: string, session?: string) => {
    const body = await call('GET', `${path}?${query}`, key, session);
    expect(body.next_cursor, `${path}?${query} has a second page`).toBeTypeOf('string');
    cursors.push({ path, query, cursor: body.next_cursor });
  };
  for (const query of ['limit=1', 'limit=1&sort=price_asc', 'limit=1&sort=price_desc', 'limit=1&sort=popular', 'limit=1&q=chair', 'limit=1&currency=EUR']) {
    await cursorOf('/v1/listings', query, m.secret);
  }
  await cursorOf('/v1/me/listings', 'limit=1', m.secret, alice.token);
  await cursorOf('/v1/me/favorites', 'limit=1', m.secret, alice.token);
  await cursorOf('/v1/catalog-terms', 'kind=brand&limit=1', m.secret);

  // unused emailed tokens: a sign-in link, an address confirmation (sent at sign-up) and a password reset
  await call('POST', '/v1/sessions/email-link', m.secret, undefined, { email: alice.user.email });
  await call('POST', '/v1/password-resets', m.secret, undefined, { email: dave.user.email });
  const aliceMail = await emailsTo(h, m.secret, alice.user.email);
  const link = (template: string, mails: typeof aliceMail) => tokenOf(mails.find((e) => e.template === template)?.links[0]);
  const tokens = {
    signInLink: link('sign_in_link', aliceMail),
    verification: link('email_confirmation', aliceMail),
    passwordReset: link('password_reset', await emailsTo(h, m.secret, dave.user.email)),
  };

  const spareSessions: string[] = [];
  for (let i = 0; i < 6; i++) spareSessions.push((await signUp(h, m.secret, { email: `spare${i}@example.com` })).token);
  const ended = (await signUp(h, m.secret, { email: 'ended@example.com' })).token;
  expect((await h.request({ method: 'DELETE', url: '/v1/sessions/current', key: m.secret, session: ended })).statusCode).toBe(204);

  const paymentSecrets: string[] = [];
  for (let i = 0; i < 4; i++) {
    const orderId = crypto.randomUUID();
    paymentSecrets.push((await h.payments.createPayment({ id: orderId, orderId, marketplaceId: m.marketplace.id, amount: 1000 + i, currency: 'SEK' })).clientSecret);
  }

  const orders = await buildOrders(h, { slug: 'fuzz', secret: m.secret }, alice.token, bob.token);
  const conversations = [
    (await call('POST', '/v1/me/conversations', m.secret, alice.token, { listing_id: orders.listing, body: 'Is it still for sale?' })).conversation.id as string,
    (await call('POST', '/v1/me/conversations', m.secret, alice.token, { support: true, body: 'Hello' })).conversation.id as string,
  ];
  const pages = await buildPages(h, m, pools.onSale);
  const terms = (await call('GET', '/v1/catalog-terms?kind=brand&limit=200', m.secret)).items.map((t: { slug: string; id: string }) => ({ kind: 'brand', slug: t.slug, id: t.id }));
  return {
    secret: m.secret,
    publishable: m.publishable,
    foreign: {
      secret: other.secret,
      publishable: other.publishable,
      session: carl.token,
      listing: foreignListing,
      image: foreignImage,
      category: other.category.chairs!,
      term: other.brand.artek!,
      user: carl.user.id,
    },
    alice: { session: alice.token, id: alice.user.id, email: alice.user.email, password },
    bob: { session: bob.token, id: bob.user.id, listings: bobListings },
    spareSessions,
    endedSession: ended,
    listings: pools,
    images: { order: { listing: orderListing, ids: orderIds }, upload: uploadListing, delete: { listing: deleteListing, ids: deleteIds } },
    categories: Object.values(m.category),
    terms: [...terms, { kind: 'color', slug: 'red', id: m.color.red! }],
    cursors,
    tokens,
    photo,
    paymentSecrets,
    orders,
    conversations,
    pages,
    make: {
      draft: (title) => draft(alice.token, title),
      onSale: (title) => onSale(alice.token, title),
      upload: async (listing) => {
        const id = await upload(m, alice.token, listing);
        await h.runJobs();
        return id;
      },
      offered: async (title) => {
        const id = await draft(alice.token, title);
        await upload(m, alice.token, id);
        await h.runJobs();
        await offer(id);
        return id;
      },
    },
  };
}

/** A published home page with live blocks, a draft with a preview link, and media of both marketplaces. */
async function buildPages(h: Harness, m: { category: Record<string, string> }, onSale: string[]) {
  const small = await jpeg(300, 200);
  const image = (await h.console.media.upload({ marketplace: 'fuzz', file: small, alt: 'A chair' })).image.id;
  const foreign = (await h.console.media.upload({ marketplace: 'other', file: small, alt: 'Elsewhere' })).image.id;
  const page = {
    title: 'Home',
    description: 'Fuzzed front page.',
    blocks: [
      { id: 'hero', type: 'hero', heading: 'Welcome', image_id: image, visual: 'image', search: true },
      { id: 'grid', type: 'listing_grid', source: 'rule', rule: { sort: 'newest' }, limit: 4 },
      { id: 'picked', type: 'listing_grid', source: 'picked', listing_ids: onSale.slice(0, 2) },
      { id: 'tiles', type: 'category_tiles', tiles: [{ category_id: m.category.chairs!, image_id: image }] },
    ],
  };
  for (const slug of ['home', 'about']) {
    await h.console.pages.put({ marketplace: 'fuzz', slug, locale: 'en', page });
    await h.console.pages.publish({ marketplace: 'fuzz', slug, locale: 'en' });
  }
  const { preview } = await h.console.pages.previewLink({ marketplace: 'fuzz', slug: 'home', locale: 'en' });
  return { slugs: ['home', 'about'], previewToken: preview.token, media: [image], foreignMedia: foreign };
}
