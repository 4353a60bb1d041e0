import { describe, expect, test } from 'vitest';
import { signUp } from './harness.js';
import { sellingSuite, type Market, type Method } from './selling.suite.js';

/** Selling over time: storage custody, the commission override, scheduled price drops. */
const s = sellingSuite();
const { as, complete, draftWithPhoto, publish } = s;

describe('storage requests', () => {
  test('wants_storage is recorded; custody moves seller → collecting → stored with the site; fulfilment follows', async () => {
    const id = await draftWithPhoto(s.open, s.seller, complete(s.open));
    const pub = (await publish(s.open, s.seller, id, { wants_storage: true })).json();
    expect(pub).toMatchObject({ wants_storage: true, custody: 'seller', fulfilment: 'seller' });
    expect(pub.site).toBeUndefined();
    const collecting = (await s.h.console.listings.custody({ id, custody: 'collecting', site: s.open.siteId })).listing;
    expect(collecting).toMatchObject({ custody: 'collecting', fulfilment: 'seller', site: { id: s.open.siteId, kind: 'showroom', name: 'Showroom', city: 'Stockholm', buyer_pickup: true } });
    expect(collecting.stored_at).toBeUndefined();
    s.h.clock.advance(3600_000);
    const stored = (await s.h.console.listings.custody({ id, custody: 'stored', site: s.open.siteId })).listing;
    expect(stored).toMatchObject({ custody: 'stored', fulfilment: 'marketplace', stored_at: s.h.clock.now().toISOString() });
    const seen = (await as(s.open, s.seller)('GET', `/v1/me/listings/${id}`)).json();
    expect(seen).toMatchObject({ custody: 'stored', fulfilment: 'marketplace', site: { id: s.open.siteId } });
    await expect(s.h.console.listings.custody({ id, custody: 'stored', site: s.curated.siteId })).rejects.toMatchObject({ cause: { code: 'validation_failed' } });
  });

  test('commission override is console-only', async () => {
    const id = (await as(s.open, s.seller)('POST', '/v1/me/listings', { title: 'Vase' })).json().id;
    expect((await s.h.console.listings.setCommission({ id, percent: 12.5 })).listing.commission_percent).toBe(12.5);
    expect((await as(s.open, s.seller)('GET', `/v1/me/listings/${id}`)).json().commission_percent).toBeUndefined();
    expect((await s.h.console.listings.setCommission({ id, percent: null })).listing.commission_percent).toBeUndefined();
  });
});

describe('scheduled price drops', () => {
  const MONTH = (from: Date, months: number) => {
    const d = new Date(from);
    d.setUTCMonth(d.getUTCMonth() + months);
    return d;
  };
  const advance = (m: Market, until: Date) => s.h.request({ method: 'POST', url: '/v1/test-helpers/timers/advance', key: m.secret, payload: { until: until.toISOString() } });

  test('steps apply on their dates through the test helper; a change while on sale restarts; closing stops them', async () => {
    // months pass in this test: sessions end after 30 idle days, so the seller signs in again after each jump
    await signUp(s.h, s.open.secret, { email: 'drops@example.com', password: 'drop drop drop' });
    const signIn = async () => (await s.h.request({ method: 'POST', url: '/v1/sessions', key: s.open.secret, payload: { email: 'drops@example.com', password: 'drop drop drop' } })).json().session.token as string;
    let session = await signIn();
    const call = (method: Method, url: string, payload?: unknown) => as(s.open, session)(method, url, payload);
    const content = { ...complete(s.open), price: { amount: 10000, currency: 'SEK' }, price_schedule: [{ months: 1, amount: 8000 }, { months: 3, amount: 6000 }] };
    const id = await draftWithPhoto(s.open, session, content);
    expect((await call('GET', `/v1/me/listings/${id}`)).json().price_schedule).toEqual([
      { months: 1, amount: 8000, done: false },
      { months: 3, amount: 6000, done: false },
    ]);
    const start = s.h.clock.now();
    const pub = (await publish(s.open, session, id)).json();
    expect(pub.price_schedule.map((step: { on: string }) => step.on)).toEqual([MONTH(start, 1).toISOString(), MONTH(start, 3).toISOString()]);

    const none = await advance(s.open, new Date(MONTH(start, 1).getTime() - 1000));
    expect(none.json().ran, none.body).toEqual([]);
    expect((await call('GET', `/v1/me/listings/${id}`)).json().price.amount).toBe(10000);
    const first = (await advance(s.open, MONTH(start, 1))).json();
    expect(first.ran).toEqual([{ task: 'apply-price-drop', run_at: MONTH(start, 1).toISOString(), result: 'applied' }]);
    s.h.clock.set(MONTH(start, 1));
    session = await signIn();
    let body = (await call('GET', `/v1/me/listings/${id}`)).json();
    expect(body.price).toEqual({ amount: 8000, currency: 'SEK' });
    expect(body.price_schedule.map((step: { done: boolean }) => step.done)).toEqual([true, false]);
    expect(body.status).toBe('published');

    // the schedule changes while on sale: it starts again from now, and the waiting job is replaced
    s.h.clock.set(MONTH(start, 2));
    session = await signIn();
    const restarted = (await call('PUT', `/v1/me/listings/${id}`, { ...content, price: { amount: 8000, currency: 'SEK' }, price_schedule: [{ months: 2, amount: 5000 }] })).json();
    expect(restarted.price_schedule).toEqual([{ months: 2, amount: 5000, done: false, on: MONTH(MONTH(start, 2), 2).toISOString() }]);
    expect((await advance(s.open, MONTH(start, 3))).json().ran).toEqual([]); // the old 3-month step is gone
    expect((await advance(s.open, MONTH(MONTH(start, 2), 2))).json().ran).toHaveLength(1);
    s.h.clock.set(MONTH(MONTH(start, 2), 2));
    session = await signIn();
    body = (await call('GET', `/v1/me/listings/${id}`)).json();
    expect(body.price.amount).toBe(5000);
    expect(body.price_schedule[0].done).toBe(true);

    // closing stops drops
    await call('PUT', `/v1/me/listings/${id}`, { ...content, price: { amount: 5000, currency: 'SEK' }, price_schedule: [{ months: 1, amount: 4000 }] });
    await call('POST', `/v1/me/listings/${id}/close`);
    expect((await advance(s.open, MONTH(start, 12))).json().ran).toEqual([]);
    s.h.clock.set(MONTH(start, 12));
    session = await signIn();
    expect((await call('GET', `/v1/me/listings/${id}`)).json().price.amount).toBe(5000);
    s.h.clock.set(start);
  });

  test('a month-end start: 31 January + 1 month is the last day of February', async () => {
    s.h.clock.set('2027-01-31T12:00:00.000Z');
    try {
      const session = (await signUp(s.h, s.open.secret, { email: 'feb@example.com' })).token;
      const id = await draftWithPhoto(s.open, session, { ...complete(s.open), price_schedule: [{ months: 1, amount: 100 }] });
      expect((await publish(s.open, session, id)).json().price_schedule[0].on).toBe('2027-02-28T12:00:00.000Z');
    } finally {
      s.h.clock.set('2026-11-22T10:00:00.000Z');
    }
  });

  test('schedule limits: months 1..60, amounts ≥ 1 and falling', async () => {
    const bad = await as(s.open, s.seller)('POST', '/v1/me/listings', { price_schedule: [{ months: 0, amount: 0 }, { months: 61, amount: 5 }] });
    expect(bad.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.price_schedule.0.amount', 'body.price_schedule.0.months', 'body.price_schedule.1.amount', 'body.price_schedule.1.months']);
    expect((await as(s.open, s.seller)('POST', '/v1/me/listings', { price_schedule: [{ months: 1, amount: 2 }, { months: 60, amount: 1 }] })).statusCode).toBe(201);
  });

  // A drop never raises the price (issue: four ways a "price drop" raised it once its date came)
  const SEK = (amount: number) => ({ amount, currency: 'SEK' });
  const locations = (res: { json(): { errors: { location: string }[] } }) => res.json().errors.map((e) => e.location);
  const stepOn = (body: { price_schedule: { on: string }[] }, i: number) => new Date(body.price_schedule[i]!.on);
  const teamView = async (id: string) => (await s.h.console.listings.get({ id })).listing;

  test('(a) a step at or above the price is refused at the step, every one at once; a step one below drops on its date', async () => {
    const call = as(s.open, s.seller);
    const raise = await call('POST', '/v1/me/listings', { ...complete(s.open), price: SEK(10000), price_schedule: [{ months: 1, amount: 20000 }] });
    expect(raise.statusCode, raise.body).toBe(422);
    expect(raise.json().errors).toEqual([{ location: 'body.price_schedule.0.amount', message: 'Must be below the price it follows (10000): a scheduled drop never raises the price.', value: 20000 }]);
    expect(locations(await call('POST', '/v1/me/listings', { ...complete(s.open), price: SEK(10000), price_schedule: [{ months: 1, amount: 10000 }] }))).toEqual(['body.price_schedule.0.amount']);
    // with other problems: all listed in one answer
    const many = await call('POST', '/v1/me/listings', { ...complete(s.open), category_id: s.curated.category.chairs, price: SEK(10000), price_schedule: [{ months: 1, amount: 12000 }, { months: 2, amount: 11000 }, { months: 3, amount: 9000 }] });
    expect(locations(many).sort()).toEqual(['body.category_id', 'body.price_schedule.0.amount', 'body.price_schedule.1.amount']);
    // a schedule set before any price meets its first price: checked then, even sent back unchanged
    const { price: _none, ...noPrice } = complete(s.open);
    const early = (await call('POST', '/v1/me/listings', { ...noPrice, price_schedule: [{ months: 1, amount: 20000 }] })).json();
    expect(early.price_schedule).toEqual([{ months: 1, amount: 20000, done: false }]);
    expect(locations(await call('PUT', `/v1/me/listings/${early.id}`, { ...noPrice, price: SEK(10000), price_schedule: [{ months: 1, amount: 20000 }] }))).toEqual(['body.price_schedule.0.amount']);

    const content = { ...complete(s.open), price: SEK(10000), price_schedule: [{ months: 1, amount: 9999 }] };
    const id = await draftWithPhoto(s.open, s.seller, content);
    const pub = (await publish(s.open, s.seller, id)).json();
    // on sale, a new schedule that would raise the price is refused the same way, and nothing changes
    const put = await call('PUT', `/v1/me/listings/${id}`, { ...content, price_schedule: [{ months: 1, amount: 20000 }] });
    expect(locations(put)).toEqual(['body.price_schedule.0.amount']);
    expect((await advance(s.open, stepOn(pub, 0))).json().ran).toEqual([{ task: 'apply-price-drop', run_at: stepOn(pub, 0).toISOString(), result: 'applied' }]);
    expect((await teamView(id)).price).toEqual(SEK(9999));
  });

  test('(b) the seller lowers the price by hand below a step, schedule sent back unchanged: that step leaves the price alone, a lower one still drops', async () => {
    const call = as(s.open, s.seller);
    const content = { ...complete(s.open), price: SEK(10000), price_schedule: [{ months: 1, amount: 9000 }, { months: 2, amount: 6000 }] };
    const id = await draftWithPhoto(s.open, s.seller, content);
    const pub = (await publish(s.open, s.seller, id)).json();
    const cut = await call('PUT', `/v1/me/listings/${id}`, { ...content, price: SEK(7000) });
    expect(cut.statusCode, cut.body).toBe(200);
    expect(cut.json().price_schedule).toEqual(pub.price_schedule); // unchanged: not restarted
    expect((await advance(s.open, stepOn(pub, 0))).json().ran).toEqual([{ task: 'apply-price-drop', run_at: stepOn(pub, 0).toISOString(), result: 'not_a_drop' }]);
    let seen = await teamView(id);
    expect(seen.price).toEqual(SEK(7000));
    expect(seen.price_schedule!.map((step) => step.done)).toEqual([true, false]);
    expect((await advance(s.open, stepOn(pub, 1))).json().ran).toEqual([{ task: 'apply-price-drop', run_at: stepOn(pub, 1).toISOString(), result: 'applied' }]);
    seen = await teamView(id);
    expect(seen.price).toEqual(SEK(6000));
    expect(seen.price_schedule!.map((step) => step.done)).toEqual([true, true]);
  });

  test('(c) a price in another currency leaves the old schedule behind; a new schedule in the new currency must fall from the new price', async () => {
    const call = as(s.open, s.seller);
    const content = { ...complete(s.open), price: SEK(10000), price_schedule: [{ months: 1, amount: 9000 }] };
    const id = await draftWithPhoto(s.open, s.seller, content);
    const pub = (await publish(s.open, s.seller, id)).json();
    const eur = await call('PUT', `/v1/me/listings/${id}`, { ...content, price: { amount: 900, currency: 'EUR' } });
    expect(eur.statusCode, eur.body).toBe(200);
    expect(eur.json().price).toEqual({ amount: 900, currency: 'EUR' });
    expect(eur.json().price_schedule).toBeUndefined();
    expect((await advance(s.open, stepOn(pub, 0))).json().ran).toEqual([]); // its drop is gone too
    expect((await teamView(id)).price).toEqual({ amount: 900, currency: 'EUR' });
    // sending the SEK amounts again now makes them a new schedule in EUR: refused, they are above the price
    expect(locations(await call('PUT', `/v1/me/listings/${id}`, { ...content, price: { amount: 900, currency: 'EUR' } }))).toEqual(['body.price_schedule.0.amount']);
    const again = (await call('PUT', `/v1/me/listings/${id}`, { ...content, price: { amount: 900, currency: 'EUR' }, price_schedule: [{ months: 1, amount: 800 }] })).json();
    expect(again.price_schedule).toMatchObject([{ months: 1, amount: 800, done: false }]);
    expect((await advance(s.open, stepOn(again, 0))).json().ran).toEqual([{ task: 'apply-price-drop', run_at: stepOn(again, 0).toISOString(), result: 'applied' }]);
    expect((await teamView(id)).price).toEqual({ amount: 800, currency: 'EUR' });
  });

  test('(c) a counter in the offer currency leaves a schedule set for a price in another currency behind', async () => {
    const session = (await signUp(s.h, s.curated.secret, { email: 'counter-drops@example.com' })).token;
    const id = await draftWithPhoto(s.curated, session, { title: 'Shelf', location: { country: 'SE' }, price: { amount: 10000, currency: 'EUR' }, price_schedule: [{ months: 1, amount: 9000 }] });
    await publish(s.curated, session, id, { ask_valuation: true });
    await s.h.console.listings.offer({ id, amount: 50000, currency: 'SEK', note: '' });
    const countered = (await as(s.curated, session)('POST', `/v1/me/listings/${id}/offer/counter`, { amount: 65000 })).json();
    expect(countered).toMatchObject({ status: 'pending_approval', price: SEK(65000) });
    expect(countered.price_schedule).toBeUndefined();
  });

  test('(d) a team offer with a step at or above the offer is refused at the step (with any other problem); one below drops after acceptance', async () => {
    const session = (await signUp(s.h, s.curated.secret, { email: 'offer-drops@example.com' })).token;
    const id = await draftWithPhoto(s.curated, session, { title: 'Sideboard', location: { country: 'SE' } });
    await publish(s.curated, session, id, { ask_valuation: true });
    await expect(s.h.console.listings.offer({ id, amount: 5500, currency: 'SEK', note: '', schedule: [{ months: 1, amount: 90000 }] })).rejects.toMatchObject({
      cause: { code: 'validation_failed', errors: [{ location: 'schedule.0.amount', value: 90000 }] },
    });
    await expect(s.h.console.listings.offer({ id, amount: 5500, currency: 'XXX', note: '', schedule: [{ months: 1, amount: 5500 }] })).rejects.toMatchObject({
      cause: { code: 'validation_failed', errors: [{ location: 'currency' }, { location: 'schedule.0.amount', value: 5500 }] },
    });
    expect((await teamView(id)).status).toBe('pending_valuation'); // nothing offered
    await s.h.console.listings.offer({ id, amount: 5500, currency: 'SEK', note: '', schedule: [{ months: 1, amount: 5499 }] });
    await as(s.curated, session)('POST', `/v1/me/listings/${id}/offer/accept`);
    const onSale = (await s.h.console.listings.approve({ id })).listing as unknown as { price_schedule: { on: string }[] };
    expect((await advance(s.curated, stepOn(onSale, 0))).json().ran).toEqual([{ task: 'apply-price-drop', run_at: stepOn(onSale, 0).toISOString(), result: 'applied' }]);
    expect((await teamView(id)).price).toEqual(SEK(5499));
  });

  test('the timers helper needs the secret key and answers 422 for a bad time', async () => {
    expect((await s.h.request({ method: 'POST', url: '/v1/test-helpers/timers/advance', key: s.open.publishable, payload: { until: new Date().toISOString() } })).statusCode).toBe(403);
    expect((await s.h.request({ method: 'POST', url: '/v1/test-helpers/timers/advance', key: s.open.secret, payload: { until: 'tomorrow' } })).statusCode).toBe(422);
  });
});
