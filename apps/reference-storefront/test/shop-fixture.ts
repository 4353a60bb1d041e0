import sharp from 'sharp';
import type { Stack } from './stack.js';

/**
 * A small shop on the test stack, made through the public API as a storefront would (and the
 * operator console for the catalogue): categories, brand and condition terms, a showroom, a seller
 * with two listings on sale and a draft, a buyer who saved one and bought a third listing's two
 * units (one order paid, one waiting for payment: sold out, so the shop still shows two listings).
 * Enough for every page to have content.
 */
export const PASSWORD = 'a11y password';

export interface ShopFixture {
  sellerEmail: string;
  sellerSession: string;
  buyerSession: string;
  /** on sale, with a photo, in "chairs" */
  listingId: string;
  draftId: string;
  /** the buyer's question to the seller about the listing on sale, answered once */
  conversationId: string;
  /** bought by the buyer from the seller (shipped to Stockholm) and paid: `purchased` */
  paidOrderId: string;
  /** placed by the buyer, waiting for payment; its client secret is what checkout keeps in the pay cookie */
  pendingOrder: { id: string; clientSecret: string };
}

export type Call = <T = { id: string }>(method: string, path: string, opts?: { body?: unknown; session?: string; bytes?: Buffer }) => Promise<T>;

/** Calls /v1 with the stack's secret key (and a user's session), as a storefront's server does; throws on an error answer. */
export function client(stack: Stack): Call {
  return async <T,>(method: string, path: string, opts: { body?: unknown; session?: string; bytes?: Buffer } = {}): Promise<T> => {
    const res = await fetch(`${stack.apiUrl}/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${stack.secretKey}`,
        ...(opts.session ? { 'x-user-session': opts.session } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : opts.bytes ? { 'content-type': 'image/jpeg' } : {}),
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : opts.bytes && new Uint8Array(opts.bytes),
    });
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return (res.status === 204 ? undefined : await res.json()) as T;
  };
}

/** A JPEG of one colour (a listing's photo, a media library image). */
export const solidJpeg = (colour: string, width = 900, height = 900) => sharp({ create: { width, height, channels: 3, background: colour } }).jpeg().toBuffer();

/**
 * A seller's new listing with one photo (a plain colour), once the worker has processed the photo,
 * published: on sale, or waiting for the team's approval when the marketplace asks for it.
 */
export async function putOnSale(call: Call, seller: string, body: Record<string, unknown>, colour: string): Promise<string> {
  const { id } = await call('POST', '/me/listings', { session: seller, body });
  const photo = await solidJpeg(colour);
  await call('POST', `/me/listings/${id}/images`, { session: seller, bytes: photo });
  const deadline = Date.now() + 30_000;
  while ((await call<{ images: { status: string }[] }>('GET', `/me/listings/${id}`, { session: seller })).images[0]?.status !== 'ready') {
    if (Date.now() > deadline) throw new Error('the worker did not process the photo');
    await new Promise((r) => setTimeout(r, 250));
  }
  await call('POST', `/me/listings/${id}/publish`, { session: seller, body: {} });
  return id;
}

export async function makeShop(stack: Stack): Promise<ShopFixture> {
  const { operator } = stack;
  const marketplace = 'browser-shop';
  await operator.marketplace.update({
    marketplace,
    settings: {
      term_kinds: [
        { key: 'brand', names: { en: 'Brand', sv: 'Märke' } },
        { key: 'condition', names: { en: 'Condition', sv: 'Skick' } },
      ],
    },
  });
  await operator.categories.import({
    marketplace,
    items: [
      { slug: 'furniture', names: { en: 'Furniture', sv: 'Möbler' }, position: 1 },
      { slug: 'chairs', names: { en: 'Chairs', sv: 'Stolar' }, parent: 'furniture', position: 1 },
      { slug: 'tables', names: { en: 'Tables', sv: 'Bord' }, parent: 'furniture', position: 2 },
      { slug: 'lighting', names: { en: 'Lighting', sv: 'Belysning' }, position: 2 },
    ],
  });
  await operator.terms.import({
    marketplace,
    items: [
      { kind: 'brand', slug: 'artek', names: { en: 'Artek', sv: 'Artek' }, descriptions: { en: 'Finnish furniture since 1935.', sv: 'Finska möbler sedan 1935.' } },
      { kind: 'brand', slug: 'louis-poulsen', names: { en: 'Louis Poulsen', sv: 'Louis Poulsen' }, descriptions: {} },
      // no listing uses it: the search filters must not offer it
      { kind: 'brand', slug: 'gubi', names: { en: 'Gubi', sv: 'Gubi' }, descriptions: {} },
      { kind: 'condition', slug: 'good', names: { en: 'Good', sv: 'Bra' }, descriptions: {} },
      { kind: 'condition', slug: 'worn', names: { en: 'Worn', sv: 'Sliten' }, descriptions: {} },
    ],
  });
  await operator.sites.create({
    marketplace,
    site: { kind: 'showroom', name: 'Södermalm showroom', line1: 'Götgatan 1', postal_code: '116 46', city: 'Stockholm', country: 'SE', active: true, buyer_pickup: true, opening_hours: 'Tue–Sat 11–18', opening_hours_by_language: { en: 'Tue–Sat 11–18', sv: 'tis–lör 11–18' } },
  });

  const call = client(stack);
  const { items: categories } = await call<{ items: { id: string; slug: string }[] }>('GET', '/categories');
  const category = (slug: string) => categories.find((c) => c.slug === slug)!.id;
  const term = async (kind: string, slug: string): Promise<string> => (await call('GET', `/catalog-terms/${kind}/${slug}`)).id;
  const signUp = async (email: string, name: string) => (await call<{ session: { token: string } }>('POST', '/users', { body: { email, password: PASSWORD, first_name: name } })).session.token;
  const sellerEmail = `sigrid.${Date.now()}@example.com`;
  const seller = await signUp(sellerEmail, 'Sigrid');
  const buyer = await signUp(`bo.${Date.now()}@example.com`, 'Bo');

  const onSale = (body: Record<string, unknown>, colour: string) => putOnSale(call, seller, body, colour);
  const listingId = await onSale(
    {
      title: 'Artek stool 60',
      description: 'Birch, three legs, designed by Alvar Aalto. A few marks on the seat.',
      price: { amount: 120000, currency: 'SEK' },
      category_id: category('chairs'),
      terms: { brand: await term('brand', 'artek'), condition: await term('condition', 'good') },
      location: { country: 'SE', city: 'Uppsala', postal_code: '753 20' },
      delivery: { pickup: true, shipping: { price: 9900 } },
    },
    '#b08850',
  );
  await onSale(
    {
      title: 'Louis Poulsen PH 5 pendant',
      description: 'The classic pendant in white, rewired in 2020.',
      price: { amount: 45000, currency: 'EUR' },
      category_id: category('lighting'),
      terms: { brand: await term('brand', 'louis-poulsen'), condition: await term('condition', 'worn') },
      location: { country: 'SE', city: 'Malmö' },
      delivery: { buyer_arranged: true },
    },
    '#d8d0c0',
  );
  const { id: draftId } = await call('POST', '/me/listings', { session: seller, body: { title: 'Pine table (draft)', price: { amount: 90000, currency: 'SEK' } } });
  await call('PUT', `/me/favorites/${listingId}`, { session: buyer });

  const tray = await onSale(
    { title: 'Teak tray', description: 'Danish teak, 1960s.', price: { amount: 60000, currency: 'SEK' }, location: { country: 'SE', city: 'Uppsala' }, delivery: { pickup: true, shipping: { price: 4900 } }, stock: 2 },
    '#8a5a2b',
  );
  type Placed = { order: { id: string }; payment: { client_secret: string } };
  const order = { listing_id: tray, delivery: { method: 'shipping', address: { name: 'Bo Buyer', line1: 'Götgatan 1', postal_code: '116 46', city: 'Stockholm', country: 'SE' } } };
  const paid = await call<Placed>('POST', '/me/orders', { session: buyer, body: order });
  await call('POST', '/test-helpers/payments/confirm', { body: { client_secret: paid.payment.client_secret, outcome: 'succeeded' } });
  const deadline = Date.now() + 30_000;
  while ((await call<{ state: string }>('GET', `/me/orders/${paid.order.id}`, { session: buyer })).state !== 'purchased') {
    if (Date.now() > deadline) throw new Error('the worker did not confirm the payment');
    await new Promise((r) => setTimeout(r, 250));
  }
  const pending = await call<Placed>('POST', '/me/orders', { session: buyer, body: order });
  const { conversation } = await call<{ conversation: { id: string } }>('POST', '/me/conversations', { session: buyer, body: { listing_id: listingId, body: 'Is the seat original?' } });
  await call('POST', `/me/conversations/${conversation.id}/messages`, { session: seller, body: { body: 'Yes, and the legs are oak.' } });
  return {
    sellerEmail,
    sellerSession: seller,
    buyerSession: buyer,
    listingId,
    draftId,
    paidOrderId: paid.order.id,
    pendingOrder: { id: pending.order.id, clientSecret: pending.payment.client_secret },
    conversationId: conversation.id,
  };
}
