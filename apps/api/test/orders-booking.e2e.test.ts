import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Harness } from './harness.js';
import { GOTHENBURG, START, STOCKHOLM, ordersSuite, type Market, type Person } from './orders.suite.js';

/**
 * Delivery booking at its edges. The shop books Stockholm deliveries: lead 2 days, horizon 14,
 * Monday to Friday, windows am and pm, 2 bookings per window, Europe/Stockholm. START is Monday
 * 2031-03-03, 10:00 in Stockholm.
 */
const suite = ordersSuite({ poolMax: 10 });
let h: Harness;
let shop: Market;
let seller: Person;
let buyer: Person;
beforeAll(() => {
  ({ h, shop, seller, buyer } = suite);
});
afterEach(() => h.clock.set(START));

const bought = async (address: object = STOCKHOLM, method = 'shipping') => suite.purchased(shop, buyer, { listing_id: await suite.listing(shop, seller), delivery: { method, ...(method === 'shipping' ? { address } : {}) } });
const booking = (who: Person, id: string) => suite.call(shop, who, 'GET', `/v1/me/orders/${id}/delivery-booking`);
const book = (who: Person, id: string, date: string, window: string) => suite.call(shop, who, 'PUT', `/v1/me/orders/${id}/delivery-booking`, { date, window });
const days = (slots: { date: string }[]) => [...new Set(slots.map((s) => s.date))];
const WEEKDAYS = ['2031-03-05', '2031-03-06', '2031-03-07', '2031-03-10', '2031-03-11', '2031-03-12', '2031-03-13', '2031-03-14', '2031-03-17'];

describe('the slots', () => {
  test('from today + lead_days to today + horizon_days, weekdays only, every window', async () => {
    const id = await bought();
    const res = await booking(buyer, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().changeable).toBe(true);
    expect(res.json().booked).toBeUndefined();
    expect(days(res.json().slots)).toEqual(WEEKDAYS);
    expect(res.json().slots.slice(0, 2)).toEqual([
      { date: '2031-03-05', window: 'am', label: '08–12', full: false },
      { date: '2031-03-05', window: 'pm', label: '13–17', full: false },
    ]);
    expect((await booking(seller, id)).json().slots).toHaveLength(18); // the seller sees it too
  });

  test('today is the day in the booking’s time zone: 23:30 UTC on Monday is Tuesday in Stockholm', async () => {
    const id = await bought();
    h.clock.set('2031-03-03T22:30:00Z');
    expect(days((await booking(buyer, id)).json().slots)[0]).toBe('2031-03-05');
    h.clock.set('2031-03-03T23:30:00Z');
    expect(days((await booking(buyer, id)).json().slots)).toEqual(['2031-03-06', '2031-03-07', '2031-03-10', '2031-03-11', '2031-03-12', '2031-03-13', '2031-03-14', '2031-03-17', '2031-03-18']);
  });

  test('409 when the delivery is not booked by the buyer: not paid, not shipped, outside the booking zones, canceled', async () => {
    const { order } = await suite.placed(shop, buyer, { listing_id: await suite.listing(shop, seller), delivery: { method: 'shipping', address: STOCKHOLM } });
    const refused = async (id: string) => {
      const res = await booking(buyer, id);
      expect(res.statusCode).toBe(409);
      return res.json().detail;
    };
    expect(await refused(order.id)).toBe('The delivery can be booked once the order is paid.');
    expect(await refused(await bought(STOCKHOLM, 'pickup'))).toBe('This order is not shipped (pickup): there is no delivery to book.');
    expect(await refused(await bought(GOTHENBURG))).toBe('The carrier arranges this delivery: there is nothing to book.');
    const canceled = await bought();
    await h.console.orders.transition({ id: canceled, transition: 'cancel' });
    expect(await refused(canceled)).toBe('This order will not be delivered: there is nothing to book.');
  });
});

describe('booking', () => {
  test('an open slot only (422 for other days and windows); the buyer only (403); a change frees the old place; full windows are 409 and shown full', async () => {
    const [a, b, c] = [await bought(), await bought(), await bought()];
    for (const [date, window] of [
      ['2031-03-04', 'am'], // inside the lead time
      ['2031-03-08', 'am'], // Saturday
      ['2031-03-18', 'am'], // beyond the horizon
    ]) {
      const res = await book(buyer, a, date!, window!);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.map((e: { location: string }) => e.location)).toEqual(['body.date']);
    }
    expect((await book(buyer, a, '2031-03-05', 'night')).json().errors).toEqual([{ location: 'body.window', message: 'Must be one of the delivery windows: am, pm.', value: 'night' }]);
    expect((await book(seller, a, '2031-03-05', 'am')).statusCode).toBe(403);

    const first = await book(buyer, a, '2031-03-05', 'am');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ booked: { date: '2031-03-05', window: 'am', label: '08–12', full: false }, changeable: true });
    expect((await book(buyer, a, '2031-03-05', 'am')).statusCode).toBe(200); // the same slot again changes nothing
    expect((await book(buyer, b, '2031-03-05', 'am')).json().booked).toEqual({ date: '2031-03-05', window: 'am', label: '08–12', full: true });
    const full = await book(buyer, c, '2031-03-05', 'am');
    expect(full.statusCode).toBe(409);
    expect(full.json().detail).toBe('This delivery window is full; choose another slot.');
    expect((await booking(buyer, c)).json().slots[0]).toEqual({ date: '2031-03-05', window: 'am', label: '08–12', full: true });

    expect((await book(buyer, a, '2031-03-05', 'pm')).json().booked).toMatchObject({ window: 'pm' });
    expect((await book(buyer, c, '2031-03-05', 'am')).statusCode).toBe(200);
    // a canceled order frees its place
    await h.console.orders.transition({ id: c, transition: 'cancel' });
    expect((await booking(buyer, b)).json().slots[0]).toMatchObject({ window: 'am', full: false });
  });

  test('changeable until the lead time; no longer once sent', async () => {
    const id = await bought();
    await book(buyer, id, '2031-03-06', 'pm'); // Thursday
    h.clock.set('2031-03-04T09:00:00Z'); // Tuesday: two days before, still changeable
    expect((await booking(buyer, id)).json().changeable).toBe(true);
    h.clock.set('2031-03-05T09:00:00Z'); // Wednesday: inside the lead time
    const late = (await booking(buyer, id)).json();
    expect(late).toEqual({ booked: { date: '2031-03-06', window: 'pm', label: '13–17', full: false }, changeable: false, slots: [] });
    const refused = await book(buyer, id, '2031-03-10', 'am');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('The booked delivery is less than 2 days away and can no longer be changed.');
    h.clock.set(START);
    await suite.move(shop, seller, id, 'mark-delivered');
    expect((await booking(buyer, id)).json()).toMatchObject({ booked: { date: '2031-03-06' }, changeable: false, slots: [] });
    expect((await book(buyer, id, '2031-03-10', 'am')).statusCode).toBe(409);
  });

  test('a window’s places are counted exactly when many book at once', async () => {
    const orders: string[] = [];
    for (let i = 0; i < 6; i++) orders.push(await bought());
    const results = await Promise.all(orders.map((id) => book(buyer, id, '2031-03-12', 'am')));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 409, 409, 409, 409]);
  });
});
