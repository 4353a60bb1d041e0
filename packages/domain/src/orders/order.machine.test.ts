import { ORDER_STATES, type Marketplace, type Order, type OrderState } from '@hm/db/entities';
import { describe, expect, test } from 'vitest';
import type { DomainError } from '../core/errors.js';
import { availableEvents, transition } from '../core/state-machine.js';
import { availableTo } from './order.mapper.js';
import { DOES, ORDER_EVENTS, orderMachine, whoMay, type OrderActor, type OrderEvent, type OrderMachineTypes } from './order.machine.js';

const NOW = new Date('2026-11-24T10:00:00Z');
const EARLIER = new Date('2026-11-20T10:00:00Z');
const ACTORS: OrderActor[] = ['buyer', 'seller', 'operator', 'system'];

/** An order as the machine sees it (no database: the table and the mechanism only). */
function order(status: OrderState, fulfilment: 'seller' | 'marketplace' = 'seller', history: Order['history'] = []): Order {
  return { status, fulfilment, history, stateEnteredAt: EARLIER, updatedAt: EARLIER } as unknown as Order;
}
const ctx = { em: undefined as never, marketplace: {} as Marketplace };
const move = (o: Order, event: OrderEvent, actor: OrderActor, data?: Record<string, string>) => transition<OrderMachineTypes>(orderMachine, o, event, actor, { ctx, now: NOW, data });
const refusal = (o: Order, event: OrderEvent, actor: OrderActor) =>
  move(o, event, actor).then(
    () => undefined,
    (e: DomainError) => ({ code: e.code, detail: e.message }),
  );

/** The spec's table (States and transitions → Order states), written out independently of the machine; automatic rows by `system`. */
const SPEC: [from: OrderState, event: OrderEvent, who: OrderActor, fulfilment: 'seller' | 'marketplace', to: OrderState][] = [
  ['pending_payment', 'confirm-payment', 'system', 'seller', 'purchased'],
  ['pending_payment', 'expire-payment', 'system', 'seller', 'payment_expired'],
  ['purchased', 'mark-delivered', 'seller', 'seller', 'delivered'],
  ['purchased', 'mark-delivered', 'operator', 'marketplace', 'delivered'],
  ['delivered', 'mark-received', 'buyer', 'seller', 'received'],
  ['delivered', 'mark-received', 'system', 'seller', 'received'],
  ['purchased', 'mark-received-early', 'buyer', 'seller', 'received'],
  ['purchased', 'cancel', 'operator', 'seller', 'canceled'],
  ['purchased', 'cancel', 'system', 'seller', 'canceled'],
  ['delivered', 'dispute', 'buyer', 'seller', 'disputed'],
  ['disputed', 'resolve-received', 'operator', 'seller', 'received'],
  ['disputed', 'resolve-canceled', 'operator', 'seller', 'canceled'],
  ['disputed', 'resolve-canceled', 'system', 'seller', 'canceled'],
];

describe('every row of the order table', () => {
  test.each(SPEC)('%s + %s by %s (%s fulfils) → %s, in history with its actor', async (from, event, who, fulfilment, to) => {
    const o = order(from, fulfilment);
    expect(availableEvents(orderMachine, o, who, ctx)).toContain(event);
    await move(o, event, who, { note: 'x' });
    expect(o).toMatchObject({ status: to, stateEnteredAt: NOW, updatedAt: NOW });
    expect(o.history).toEqual([{ transition: event, from, to, actor: who, at: NOW.toISOString(), data: { note: 'x' } }]);
  });

  test.each(SPEC)('%s + %s is never open to an actor the row does not name', async (from, event, who, fulfilment) => {
    for (const other of ACTORS.filter((a) => !whoMay(event).includes(a))) {
      const o = order(from, fulfilment);
      expect(availableEvents(orderMachine, o, other, ctx)).not.toContain(event);
      expect((await refusal(o, event, other))?.code).toBe('forbidden');
      expect(o.status).toBe(from);
    }
    expect(whoMay(event)).toContain(who);
  });
});

describe('every event from every other state is refused (409, saying why)', () => {
  const allowed = new Set(SPEC.map(([from, event]) => `${from} ${event}`));
  const cases = ORDER_STATES.flatMap((s) => ORDER_EVENTS.filter((e) => !allowed.has(`${s} ${e}`) && !(s === 'payment_expired' && e === 'confirm-payment')).map((e) => [s, e] as const));

  const WHERE: Record<OrderState, string> = {
    pending_payment: 'it is waiting for payment',
    purchased: 'it is paid and not yet marked sent',
    delivered: 'it is marked sent and waiting for the buyer',
    received: 'it is received (final)',
    disputed: 'it is disputed and the team is resolving it',
    canceled: 'it is canceled (final)',
    payment_expired: 'its payment window ended (final)',
  };

  test('the cases cover the whole state × event grid', () => {
    expect(cases.length + allowed.size + 1).toBe(ORDER_STATES.length * ORDER_EVENTS.length);
  });

  test.each(cases)('%s + %s → 409', async (state, event) => {
    const o = order(state);
    const who = whoMay(event)[0]!;
    const refused = await refusal(o, event, who);
    expect(refused).toEqual({ code: 'conflict', detail: `Cannot ${DOES[event]}: ${WHERE[state]}.` });
    expect(o.status).toBe(state);
    expect(o.history).toEqual([]);
  });
});

describe('actor rules beyond the state', () => {
  test('the seller marks sent only what they send; the team only what the marketplace sends (409 saying who)', async () => {
    expect(await refusal(order('purchased', 'marketplace'), 'mark-delivered', 'seller')).toEqual({ code: 'conflict', detail: 'The marketplace sends this order (the item is stored with it); the team marks it sent.' });
    expect(await refusal(order('purchased', 'seller'), 'mark-delivered', 'operator')).toEqual({ code: 'conflict', detail: 'The seller sends this order; the seller marks it sent.' });
  });

  test('available_transitions of a user are the user-facing ones open to them; the team sees its own', () => {
    expect(availableTo(order('purchased'), 'buyer', ctx)).toEqual(['mark-received-early']);
    expect(availableTo(order('purchased'), 'seller', ctx)).toEqual(['mark-delivered']);
    expect(availableTo(order('purchased', 'marketplace'), 'seller', ctx)).toEqual([]);
    expect(availableTo(order('purchased', 'marketplace'), 'operator', ctx)).toEqual(['mark-delivered', 'cancel']);
    expect(availableTo(order('delivered'), 'buyer', ctx)).toEqual(['mark-received', 'dispute']);
    expect(availableTo(order('delivered'), 'seller', ctx)).toEqual([]);
    expect(availableTo(order('disputed'), 'operator', ctx)).toEqual(['resolve-received', 'resolve-canceled']);
    for (const final of ['received', 'canceled', 'payment_expired'] as const) {
      for (const who of ['buyer', 'seller', 'operator'] as const) expect(availableTo(order(final), who, ctx)).toEqual([]);
    }
    expect(availableTo(order('pending_payment'), 'buyer', ctx)).toEqual([]);
  });

  test('a payment confirmed after its window ended is recorded once, without leaving payment_expired', async () => {
    const o = order('payment_expired');
    await move(o, 'confirm-payment', 'system');
    expect(o).toMatchObject({ status: 'payment_expired', stateEnteredAt: EARLIER, updatedAt: NOW });
    expect(o.history).toEqual([{ transition: 'confirm-payment', from: 'payment_expired', to: 'payment_expired', actor: 'system', at: NOW.toISOString() }]);
    expect((await refusal(o, 'confirm-payment', 'system'))?.code).toBe('conflict');
    expect(o.history).toHaveLength(1);
  });
});
