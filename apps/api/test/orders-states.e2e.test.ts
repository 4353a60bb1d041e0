import { beforeAll, describe, expect, test } from 'vitest';
import { emailsTo, type Harness } from './harness.js';
import { STOCKHOLM, ordersSuite, type Market, type Person } from './orders.suite.js';

/** Every row of the order table over HTTP and the console, every actor rule, the order notices. */
const suite = ordersSuite();
let h: Harness;
let shop: Market;
let seller: Person;
let buyer: Person;
beforeAll(() => {
  ({ h, shop, seller, buyer } = suite);
});

const bought = async (who: Person = buyer) => suite.purchased(shop, who, { listing_id: await suite.listing(shop, seller), delivery: { method: 'shipping', address: STOCKHOLM } });
const steps = (o: { history: { transition: string; from: string; to: string; actor: string }[] }) => o.history.map((e) => `${e.transition}:${e.from}>${e.to}:${e.actor}`);
const refusal = async (res: Awaited<ReturnType<Harness['request']>>) => ({ status: res.statusCode, code: res.json().code, detail: res.json().detail });
const orderMails = async (to: string, id: string) => (await emailsTo(h, shop.secret, to)).filter((e) => e.links.some((l) => l.endsWith(`/orders/${id}`)));

describe('the user-facing rows', () => {
  test('paid by the provider (system), sent by the seller with tracking, received by the buyer; history keeps every move and actor; notices in each language', async () => {
    const id = await bought();
    let order = await suite.get(shop, buyer, id);
    expect(order.available_transitions).toEqual(['mark-received-early']);
    expect((await suite.get(shop, seller, id)).available_transitions).toEqual(['mark-delivered']);

    const sent = await suite.move(shop, seller, id, 'mark-delivered', { tracking_number: 'JJD0099', carrier: 'PostNord', note: 'fragile' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ state: 'delivered', available_transitions: [], delivery: { method: 'shipping', tracking_number: 'JJD0099', carrier: 'PostNord' } });
    expect(sent.json().delivery.note).toBeUndefined(); // other data stays in history only
    order = await suite.get(shop, buyer, id);
    expect(order.available_transitions).toEqual(['mark-received', 'dispute']);

    const received = await suite.move(shop, buyer, id, 'mark-received');
    expect(received.json()).toMatchObject({ state: 'received', available_transitions: [], state_entered_at: h.clock.now().toISOString() });
    expect(steps(received.json())).toEqual([
      'request-payment:(new)>pending_payment:buyer',
      'confirm-payment:pending_payment>purchased:system',
      'mark-delivered:purchased>delivered:seller',
      'mark-received:delivered>received:buyer',
    ]);
    expect(received.json().history[2].data).toEqual({ tracking_number: 'JJD0099', carrier: 'PostNord', note: 'fragile' });

    const toBuyer = await orderMails(buyer.email, id);
    const toSeller = await orderMails(seller.email, id);
    // each notice names the item (the order's item line) in its subject and its first sentence; once sent, the tracking
    const item = (order.line_items as { code: string; label: string }[]).find((l) => l.code === 'item')!.label;
    expect(item).toMatch(/^Lamp \d+$/);
    expect(toBuyer.map((e) => [e.template, e.locale, e.subject]).reverse()).toEqual([
      ['order_paid_buyer', 'sv', `Tack för din beställning: ${item}`],
      ['order_sent_buyer', 'sv', `Din beställning är på väg: ${item}`],
      ['order_received_buyer', 'sv', `Din beställning är klar: ${item}`],
    ]);
    expect(toSeller.map((e) => [e.template, e.locale, e.subject]).reverse()).toEqual([
      ['order_paid_seller', 'en', `You have sold an item: ${item}`],
      ['order_sent_seller', 'en', `Order marked sent: ${item}`],
      ['order_received_seller', 'en', `Your sale is complete: ${item}`],
    ]);
    const sentToBuyer = toBuyer.find((e) => e.template === 'order_sent_buyer')!;
    expect(sentToBuyer.text).toContain(`Din beställning av ${item} är på väg — spårning JJD0099 (PostNord). Din beställning har markerats som skickad.`);
    expect(sentToBuyer.html).toContain(`Din beställning av ${item} är på väg — spårning JJD0099 (PostNord).`);
    expect(toSeller.find((e) => e.template === 'order_paid_seller')!.text).toContain(`You have sold ${item}.`);
    expect(toBuyer[0]!.links).toEqual([`https://shop.example/sv/orders/${id}`]);
    expect(toSeller[0]!.links).toEqual([`https://shop.example/en/orders/${id}`]);
  });

  test('received early by the buyer (had it before it was marked sent); German notices', async () => {
    const id = await bought(suite.buyer2);
    const res = await suite.move(shop, suite.buyer2, id, 'mark-received-early');
    expect(res.json()).toMatchObject({ state: 'received' });
    expect(steps(res.json()).at(-1)).toBe('mark-received-early:purchased>received:buyer');
    const mails = await orderMails(suite.buyer2.email, id);
    const item = (res.json().line_items as { code: string; label: string }[]).find((l) => l.code === 'item')!.label;
    expect(mails.map((e) => [e.template, e.subject])).toEqual([
      ['order_received_buyer', `Deine Bestellung ist abgeschlossen: ${item}`],
      ['order_paid_buyer', `Danke für deine Bestellung: ${item}`],
    ]);
    expect(mails[0]!.text).toContain(`Deine Bestellung von ${item} ist abgeschlossen.`);
    expect(mails[0]!.links).toEqual([`https://shop.example/de/orders/${id}`]);
  });

  test('disputed by the buyer, then resolved by the team: received, or canceled and refunded through the payments port', async () => {
    const a = await bought();
    await suite.move(shop, seller, a, 'mark-delivered');
    const disputed = await suite.move(shop, buyer, a, 'dispute', { reason: 'Arrived broken' });
    expect(disputed.json()).toMatchObject({ state: 'disputed', available_transitions: [] });
    expect((await suite.get(shop, seller, a)).available_transitions).toEqual([]);
    const resolved = (await h.console.orders.transition({ id: a, transition: 'resolve-received' })).order;
    expect(resolved).toMatchObject({ state: 'received', refund: null });
    expect(steps(resolved).at(-1)).toBe('resolve-received:disputed>received:operator');

    const b = await bought();
    await suite.move(shop, seller, b, 'mark-delivered');
    await suite.move(shop, buyer, b, 'dispute');
    expect((await h.console.orders.get({ id: b })).order.available_transitions).toEqual(['resolve-received', 'resolve-canceled']);
    const canceled = (await h.console.orders.transition({ id: b, transition: 'resolve-canceled', data: { note: 'Refund agreed' } })).order;
    expect(canceled).toMatchObject({ state: 'canceled', refund: null });
    await h.runJobs(); // refund-order
    const refunded = (await h.console.orders.get({ id: b })).order;
    expect(refunded.refund).toEqual({ id: expect.stringMatching(/^re_/), at: expect.any(String) });
    expect(steps(refunded).at(-1)).toBe('resolve-canceled:disputed>canceled:operator');
  });

  test('the team cancels a paid order that was never sent: refunded once, however often the job runs', async () => {
    const id = await bought();
    const canceled = (await h.console.orders.transition({ id, transition: 'cancel' })).order;
    expect(canceled).toMatchObject({ state: 'canceled', available_transitions: [] });
    await h.runJobs();
    const first = (await h.console.orders.get({ id })).order.refund;
    expect(first?.id).toMatch(/^re_/);
    // the job again (a retry, a duplicate): the order keeps its one refund
    await h.orm.em.getConnection().execute(`select graphile_worker.add_job('refund-order', ?::json)`, [JSON.stringify({ marketplace_id: shop.marketplace.id, order_id: id })]);
    await h.runJobs();
    expect((await h.console.orders.get({ id })).order.refund).toEqual(first);
    expect((await suite.get(shop, buyer, id)).history.at(-1)).toMatchObject({ transition: 'cancel', from: 'purchased', to: 'canceled', actor: 'operator' });
  });

  test('canceling a paid order that was never sent returns its stock: a sold-out listing is on sale again', async () => {
    const listing = await suite.listing(shop, seller, { stock: 2 });
    const bought2 = (qty: number) => suite.purchased(shop, buyer, { listing_id: listing, quantity: qty, delivery: { method: 'shipping', address: STOCKHOLM } });
    const a = await bought2(1);
    const b = await bought2(1);
    const stock = async () => (await suite.call(shop, seller, 'GET', `/v1/me/listings/${listing}`)).json().stock as number;
    expect(await stock()).toBe(0);
    expect((await suite.call(shop, undefined, 'GET', `/v1/listings/${listing}`)).statusCode).toBe(404); // sold out: out of the shop
    await h.console.orders.transition({ id: a, transition: 'cancel' });
    expect(await stock()).toBe(1);
    expect((await suite.call(shop, undefined, 'GET', `/v1/listings/${listing}`)).statusCode).toBe(200);
    // a sent order that ends canceled through a dispute gives nothing back (the item left the seller)
    expect((await suite.move(shop, seller, b, 'mark-delivered')).statusCode).toBe(200);
    expect((await suite.move(shop, buyer, b, 'dispute')).statusCode).toBe(200);
    await h.console.orders.transition({ id: b, transition: 'resolve-canceled' });
    expect(await stock()).toBe(1);
    expect((await suite.placed(shop, suite.buyer2, { listing_id: listing, delivery: { method: 'pickup' } })).order.state).toBe('pending_payment');
  });

  test('marketplace fulfilment: the team marks it sent (with tracking from --data), not the seller', async () => {
    const site = (await h.console.sites.create({ marketplace: 'shop', site: { kind: 'warehouse', name: 'Hall', line1: 'Väg 1', postal_code: '12345', city: 'Huddinge', country: 'SE', buyer_pickup: false } })).site;
    const listing = await suite.listing(shop, seller);
    await h.console.listings.custody({ id: listing, custody: 'stored', site: site.id });
    const id = await suite.purchased(shop, buyer, { listing_id: listing, delivery: { address: STOCKHOLM } });
    expect((await suite.get(shop, seller, id)).available_transitions).toEqual([]);
    expect(await refusal(await suite.move(shop, seller, id, 'mark-delivered'))).toEqual({ status: 409, code: 'conflict', detail: 'The marketplace sends this order (the item is stored with it); the team marks it sent.' });
    const sent = (await h.console.orders.transition({ id, transition: 'mark-delivered', data: { tracking_number: 'W1', carrier: 'DHL' } })).order;
    expect(sent).toMatchObject({ state: 'delivered', fulfilment: 'marketplace', sent_by: 'marketplace', delivery: { tracking_number: 'W1', carrier: 'DHL' } });
    // the seller's view says who sends it; the seller cannot give the tracking either
    expect(await suite.get(shop, seller, id)).toMatchObject({ sent_by: 'marketplace', available_transitions: [] });
    expect(await refusal(await suite.call(shop, seller, 'PATCH', `/v1/me/orders/${id}/delivery`, { tracking_number: 'X' }))).toEqual({ status: 409, code: 'conflict', detail: 'The marketplace sends this order (the item is stored with it); the team gives its tracking.' });
  });
});

describe("the seller's listing view counts units sold and reserved", () => {
  test('stock 3: one reserved (awaiting payment), one sold, then the last sold → stock 0, sold 3; the shop and the buyer never see the counts', async () => {
    const listing = await suite.listing(shop, seller, { stock: 3 });
    const mine = async () => (await suite.call(shop, seller, 'GET', `/v1/me/listings/${listing}`)).json();
    const inList = async () => ((await suite.call(shop, seller, 'GET', '/v1/me/listings?limit=100')).json().items as { id: string }[]).find((l) => l.id === listing);
    expect(await mine()).toMatchObject({ stock: 3, units_sold: 0, units_reserved: 0 });
    const order = (qty: number) => ({ listing_id: listing, quantity: qty, delivery: { method: 'shipping', address: STOCKHOLM } });
    const waiting = await suite.placed(shop, buyer, order(1));
    expect(await mine()).toMatchObject({ stock: 2, units_sold: 0, units_reserved: 1 });
    await suite.purchased(shop, buyer, order(1));
    expect(await mine()).toMatchObject({ stock: 1, units_sold: 1, units_reserved: 1 });
    expect(await inList()).toMatchObject({ stock: 1, units_sold: 1, units_reserved: 1 });
    await suite.pay(shop, waiting.secret);
    expect(await mine()).toMatchObject({ stock: 1, units_sold: 2, units_reserved: 0 });
    const last = await suite.purchased(shop, buyer, order(1));
    await suite.move(shop, seller, last, 'mark-delivered');
    expect(await mine()).toMatchObject({ status: 'published', stock: 0, units_sold: 3, units_reserved: 0 });
    expect(await inList()).toMatchObject({ stock: 0, units_sold: 3, units_reserved: 0 });
    // public views carry no counts
    const other = await suite.listing(shop, seller);
    const shopView = (await suite.call(shop, undefined, 'GET', `/v1/listings/${other}`)).json();
    expect(shopView.units_sold).toBeUndefined();
    expect(shopView.units_reserved).toBeUndefined();
  });
});

describe('tracking after sending (PATCH /v1/me/orders/{id}/delivery, not a transition)', () => {
  test('sent without tracking, the seller adds it, corrects the carrier, removes it with ""; state, timers and history unchanged', async () => {
    const id = await bought();
    expect((await suite.get(shop, seller, id)).sent_by).toBe('seller');
    const patch = (who: Person, body: unknown) => suite.call(shop, who, 'PATCH', `/v1/me/orders/${id}/delivery`, body);
    // before it is marked sent: 409 saying why
    expect(await refusal(await patch(seller, { tracking_number: 'JJD1' }))).toEqual({ status: 409, code: 'conflict', detail: 'Tracking can be changed only while the order is marked sent and waiting for the buyer; it is purchased.' });
    const sent = await suite.move(shop, seller, id, 'mark-delivered');
    expect(sent.json().delivery.tracking_number).toBeUndefined();
    const enteredAt = sent.json().state_entered_at;

    const added = await patch(seller, { tracking_number: ' JJD0042 ', carrier: 'PostNord' });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ state: 'delivered', state_entered_at: enteredAt, delivery: { method: 'shipping', tracking_number: 'JJD0042', carrier: 'PostNord' } });
    const corrected = await patch(seller, { carrier: 'DHL' });
    expect(corrected.json().delivery).toMatchObject({ tracking_number: 'JJD0042', carrier: 'DHL' });
    // the buyer sees it
    expect((await suite.get(shop, buyer, id)).delivery).toMatchObject({ tracking_number: 'JJD0042', carrier: 'DHL' });
    const removed = await patch(seller, { carrier: '' });
    expect(removed.json().delivery.carrier).toBeUndefined();
    expect(removed.json().history.map((e: { transition: string }) => e.transition)).toEqual(['request-payment', 'confirm-payment', 'mark-delivered']);

    // the buyer may not; nothing to change and limits are 422 with every location
    expect(await refusal(await patch(buyer, { tracking_number: 'X' }))).toEqual({ status: 409, code: 'conflict', detail: 'Only the seller can change the tracking of this order.' });
    const empty = await patch(seller, {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.map((e: { location: string }) => e.location)).toEqual(['body.tracking_number']);
    const long = await patch(seller, { tracking_number: 'x'.repeat(101), carrier: 'y'.repeat(101) });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.carrier', 'body.tracking_number']);
    // the limit is on what was sent, as the document says (maxLength), not on what is left after trimming
    const spaces = await patch(seller, { tracking_number: ' '.repeat(101), carrier: ' x'.repeat(51) });
    expect(spaces.statusCode).toBe(422);
    expect(spaces.json().errors.map((e: { location: string }) => e.location).sort()).toEqual(['body.carrier', 'body.tracking_number']);
    expect((await patch(seller, { tracking_number: 'x'.repeat(100) })).statusCode).toBe(200);

    // once received it is final
    await suite.move(shop, buyer, id, 'mark-received');
    expect((await patch(seller, { tracking_number: 'JJD2' })).statusCode).toBe(409);
  });
});

describe('anything not in available_transitions is 409 saying why', () => {
  test('by actor and by state; an unknown transition is 422 at path.transition', async () => {
    const id = await bought();
    expect(await refusal(await suite.move(shop, seller, id, 'dispute'))).toEqual({ status: 409, code: 'conflict', detail: 'Only the buyer can dispute this order.' });
    expect(await refusal(await suite.move(shop, buyer, id, 'mark-delivered'))).toEqual({ status: 409, code: 'conflict', detail: 'Only the seller or the marketplace team can mark this order sent.' });
    expect(await refusal(await suite.move(shop, buyer, id, 'cancel'))).toEqual({ status: 409, code: 'conflict', detail: 'Only the marketplace team or the service itself (automatically) can cancel this order.' });
    expect(await refusal(await suite.move(shop, buyer, id, 'confirm-payment'))).toEqual({ status: 409, code: 'conflict', detail: 'Only the service itself (automatically) can confirm the payment of this order.' });
    expect(await refusal(await suite.move(shop, buyer, id, 'mark-received'))).toEqual({ status: 409, code: 'conflict', detail: 'Cannot mark this order received: it is paid and not yet marked sent.' });
    expect(await refusal(await suite.move(shop, buyer, id, 'dispute'))).toEqual({ status: 409, code: 'conflict', detail: 'Cannot dispute this order: it is paid and not yet marked sent.' });
    await suite.move(shop, seller, id, 'mark-delivered');
    expect(await refusal(await suite.move(shop, seller, id, 'mark-delivered'))).toEqual({ status: 409, code: 'conflict', detail: 'Cannot mark this order sent: it is marked sent and waiting for the buyer.' });
    expect(await refusal(await suite.move(shop, buyer, id, 'mark-received-early'))).toEqual({ status: 409, code: 'conflict', detail: 'Cannot mark this order received before it is sent: it is marked sent and waiting for the buyer.' });
    const unknown = await suite.move(shop, buyer, id, 'teleport');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors[0]).toMatchObject({ location: 'path.transition', value: 'teleport' });
    expect(await refusal(await suite.move(shop, buyer, id, 'mark-received', { x: 'y'.repeat(501) }))).toMatchObject({ status: 422 });
    await expect(h.console.orders.transition({ id, transition: 'dispute' })).rejects.toMatchObject({ cause: { code: 'conflict', message: 'Only the buyer can dispute this order.' } });
    expect((await suite.get(shop, buyer, id)).state).toBe('delivered');
  });

  test('a pending order offers nothing to its buyer or seller', async () => {
    const { order } = await suite.placed(shop, buyer, { listing_id: await suite.listing(shop, seller), delivery: { method: 'pickup' } });
    expect(order.available_transitions).toEqual([]);
    expect((await suite.get(shop, seller, order.id)).available_transitions).toEqual([]);
    expect(await refusal(await suite.move(shop, buyer, order.id, 'mark-received-early'))).toEqual({ status: 409, code: 'conflict', detail: 'Cannot mark this order received before it is sent: it is waiting for payment.' });
  });
});
