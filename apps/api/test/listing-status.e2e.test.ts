import { describe, expect, test } from 'vitest';
import { emailsTo, uploadPhoto } from './harness.js';
import { sellingSuite } from './selling.suite.js';

/** Selling: the listing status table — publish, approve or deny, valuation offers and counters, close and delete, each from the statuses it is allowed in (else a 409 that says why), and edits on sale or closed. */
const s = sellingSuite();
const { as, complete, draftWithPhoto, publish } = s;

describe('the listing status table', () => {
  test('draft → published (approval off, complete): published_at set; close → closed; publish again → published', async () => {
    const id = await draftWithPhoto(s.open, s.seller, complete(s.open));
    s.h.clock.advance(60_000);
    const pub = (await publish(s.open, s.seller, id)).json();
    expect(pub).toMatchObject({ status: 'published', published_at: s.h.clock.now().toISOString() });
    s.h.clock.advance(60_000);
    const closed = (await as(s.open, s.seller)('POST', `/v1/me/listings/${id}/close`)).json();
    expect(closed).toMatchObject({ status: 'closed', closed_at: s.h.clock.now().toISOString() });
    const again = (await publish(s.open, s.seller, id)).json();
    expect(again.status).toBe('published');
    expect(again.closed_at).toBeUndefined();
  });

  test('pending_approval → approve → published, with an email to the seller linking to the listing page', async () => {
    const id = await draftWithPhoto(s.curated, s.curator, { ...complete(s.curated), terms: {} });
    expect((await publish(s.curated, s.curator, id)).json().status).toBe('pending_approval');
    const { listing } = await s.h.console.listings.approve({ id });
    expect(listing).toMatchObject({ status: 'published', published_at: expect.any(String) });
    const [mail] = await emailsTo(s.h, s.curated.secret, 'cur@example.com');
    expect(mail).toMatchObject({ template: 'listing_published', subject: 'Your listing is on sale' });
    expect(mail!.links).toEqual([`https://shop.example/en/account/listings/${id}`]);
  });

  test('pending_approval → deny → denied with review_note and email; denied cannot be edited or sent again', async () => {
    const id = await draftWithPhoto(s.curated, s.curator, { ...complete(s.curated), terms: {} });
    await publish(s.curated, s.curator, id);
    const { listing } = await s.h.console.listings.deny({ id, note: 'We do not sell replicas.' });
    expect(listing).toMatchObject({ status: 'denied', review_note: 'We do not sell replicas.' });
    expect((await emailsTo(s.h, s.curated.secret, 'cur@example.com'))[0]).toMatchObject({ template: 'listing_denied' });
    const call = as(s.curated, s.curator);
    const again = await publish(s.curated, s.curator, id);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toContain('denied');
    expect((await call('PUT', `/v1/me/listings/${id}`, { title: 'x' })).statusCode).toBe(409);
    expect((await uploadPhoto(s.h, s.curated.secret, s.curator, id, s.photo)).statusCode).toBe(409);
    expect((await call('DELETE', `/v1/me/listings/${id}`)).statusCode).toBe(409);
  });

  test('valuation: pending_valuation → offer → valuation_offered → accept → pending_approval (offer becomes the price and schedule)', async () => {
    const id = await draftWithPhoto(s.curated, s.curator, { title: 'Cabinet', location: { country: 'SE' } });
    await publish(s.curated, s.curator, id, { ask_valuation: true });
    const { listing } = await s.h.console.listings.offer({ id, amount: 120000, currency: 'SEK', note: 'Good condition.', schedule: [{ months: 2, amount: 90000 }] });
    expect(listing).toMatchObject({ status: 'valuation_offered', offer: { amount: 120000, currency: 'SEK' }, offer_note: 'Good condition.', offer_schedule: [{ months: 2, amount: 90000 }] });
    expect((await emailsTo(s.h, s.curated.secret, 'cur@example.com'))[0]).toMatchObject({ template: 'listing_offer', links: [`https://shop.example/en/account/listings/${id}`] });
    const call = as(s.curated, s.curator);
    expect((await call('PUT', `/v1/me/listings/${id}`, { title: 'x' })).statusCode).toBe(409); // no edits while the team reviews
    const accepted = (await call('POST', `/v1/me/listings/${id}/offer/accept`)).json();
    expect(accepted).toMatchObject({ status: 'pending_approval', price: { amount: 120000, currency: 'SEK' }, price_schedule: [{ months: 2, amount: 90000, done: false }] });
    expect(accepted.price_schedule[0].on).toBeUndefined(); // not on sale yet
    const published = (await s.h.console.listings.approve({ id })).listing;
    expect(published.price_schedule![0]!.on).toBeDefined();
    // closed and put up again: waiting for approval with its own price, the old offer gone (the back office would show it as "our offer")
    expect((await call('POST', `/v1/me/listings/${id}/close`)).json().status).toBe('closed');
    const again = (await publish(s.curated, s.curator, id)).json();
    expect(again).toMatchObject({ status: 'pending_approval', price: { amount: 120000, currency: 'SEK' } });
    expect([again.offer, again.offer_note, again.offer_schedule]).toEqual([undefined, undefined, undefined]);
    expect((await s.h.console.listings.get({ id })).listing.offer).toBeUndefined();
  });

  test('counter: seller’s price in the offer currency → pending_approval; the team may offer again → valuation_offered', async () => {
    const id = await draftWithPhoto(s.curated, s.curator, { title: 'Desk', location: { country: 'SE' }, price: { amount: 1, currency: 'EUR' } });
    await publish(s.curated, s.curator, id, { ask_valuation: true });
    expect((await s.h.console.listings.offer({ id, amount: 50000, currency: 'SEK', note: '' })).listing.status).toBe('valuation_offered');
    const countered = (await as(s.curated, s.curator)('POST', `/v1/me/listings/${id}/offer/counter`, { amount: 65000 })).json();
    expect(countered).toMatchObject({ status: 'pending_approval', price: { amount: 65000, currency: 'SEK' } });
    expect((await as(s.curated, s.curator)('POST', `/v1/me/listings/${id}/offer/counter`, { amount: 0 })).statusCode).toBe(422);
    expect((await as(s.curated, s.curator)('POST', `/v1/me/listings/${id}/offer/counter`, { amount: 60000 })).statusCode).toBe(409); // already answered
    expect((await s.h.console.listings.offer({ id, amount: 58000, currency: 'SEK', note: 'Meet halfway?' })).listing.status).toBe('valuation_offered');
  });

  test('an offer on a listing waiting for approval without a counter is refused (409)', async () => {
    const id = await draftWithPhoto(s.curated, s.curator, { title: 'Rug', location: { country: 'SE' }, price: { amount: 100, currency: 'SEK' } });
    await publish(s.curated, s.curator, id);
    await expect(s.h.console.listings.offer({ id, amount: 100, currency: 'SEK', note: '' })).rejects.toMatchObject({ cause: { code: 'conflict' } });
  });

  test('refused transitions are 409 problems that say why', async () => {
    const call = as(s.open, s.seller);
    const draft = (await call('POST', '/v1/me/listings', {})).json().id;
    const close = await call('POST', `/v1/me/listings/${draft}/close`);
    expect(close.statusCode).toBe(409);
    expect(close.json().detail).toBe('Cannot close this listing: it is a draft.');
    expect((await call('POST', `/v1/me/listings/${draft}/offer/accept`)).json().detail).toBe('Cannot accept offer this listing: it is a draft.');
    expect((await call('POST', `/v1/me/listings/${draft}/offer/counter`, { amount: 5 })).statusCode).toBe(409);
    const onSale = await draftWithPhoto(s.open, s.seller, complete(s.open));
    await publish(s.open, s.seller, onSale);
    expect((await publish(s.open, s.seller, onSale)).json()).toMatchObject({ status: 409, detail: 'Cannot publish this listing: it is on sale.' });
    await expect(s.h.console.listings.approve({ id: onSale })).rejects.toMatchObject({ cause: { code: 'conflict' } });
  });

  test('delete: a never-on-sale draft is removed (with its photos); an ever-on-sale listing is closed instead', async () => {
    const call = as(s.open, s.seller);
    const draft = await draftWithPhoto(s.open, s.seller, { title: 'Gone' });
    const imageId = (await call('GET', `/v1/me/listings/${draft}`)).json().images[0].id;
    expect((await call('DELETE', `/v1/me/listings/${draft}`)).statusCode).toBe(204);
    expect((await call('GET', `/v1/me/listings/${draft}`)).statusCode).toBe(404);
    expect((await s.h.request({ method: 'GET', url: `/v1/images/${imageId}/thumb.jpg` })).statusCode).toBe(404);

    const sold = await draftWithPhoto(s.open, s.seller, complete(s.open));
    await publish(s.open, s.seller, sold);
    expect((await call('DELETE', `/v1/me/listings/${sold}`)).statusCode).toBe(204);
    expect((await call('GET', `/v1/me/listings/${sold}`)).json()).toMatchObject({ status: 'closed', closed_at: expect.any(String) });
    expect((await call('DELETE', `/v1/me/listings/${sold}`)).statusCode).toBe(204);
    expect((await call('GET', `/v1/me/listings/${sold}`)).json().status).toBe('closed');
  });

  test('a listing on sale stays on sale when edited and must stay complete', async () => {
    const call = as(s.open, s.seller);
    const id = await draftWithPhoto(s.open, s.seller, complete(s.open));
    await publish(s.open, s.seller, id);
    const content = complete(s.open);
    const edited = await call('PUT', `/v1/me/listings/${id}`, { ...content, title: 'Renamed', price: { amount: 199000, currency: 'SEK' } });
    expect(edited.json()).toMatchObject({ status: 'published', title: 'Renamed', price: { amount: 199000 } });
    const broken = await call('PUT', `/v1/me/listings/${id}`, { ...content, title: '', location: {} });
    expect(broken.statusCode).toBe(422);
    expect(broken.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.location.country', 'body.title']);
    expect((await call('GET', `/v1/me/listings/${id}`)).json().title).toBe('Renamed');
    const imageId = (await call('GET', `/v1/me/listings/${id}`)).json().images[0].id;
    expect((await call('DELETE', `/v1/me/listings/${id}/images/${imageId}`)).statusCode).toBe(409); // the only photo
  });

  test('closed listings cannot be edited', async () => {
    const id = await draftWithPhoto(s.open, s.seller, complete(s.open));
    await publish(s.open, s.seller, id);
    await as(s.open, s.seller)('POST', `/v1/me/listings/${id}/close`);
    expect((await as(s.open, s.seller)('PUT', `/v1/me/listings/${id}`, complete(s.open))).json()).toMatchObject({ status: 409, detail: expect.stringContaining('closed') });
  });
});
