import { expect, test } from 'vitest';
import { LISTING_EFFECT_SLOTS } from '../listings/index.js';
import { ORDER_EFFECT_SLOTS } from '../orders/index.js';
import { eventTypesOf, HANDLED_PAYMENT_EVENTS } from '../payments/index.js';
import { PAYMENT_EVENT_HANDLERS, paymentEventHandler } from './payment-events.js';
import './index.js';

test('loading the flows fills every effect slot the machines name', () => {
  for (const slots of [ORDER_EFFECT_SLOTS, LISTING_EFFECT_SLOTS]) {
    expect(slots.names.length).toBeGreaterThan(0);
    expect(slots.empty()).toEqual([]);
  }
});

test('every payment event type we act on has its handler in the payment-events flow', () => {
  for (const type of ['payment_intent.succeeded', 'account.updated', 'charge.refunded', 'charge.dispute.created', 'charge.dispute.closed']) expect(paymentEventHandler(type)).toBeTypeOf('function');
  expect(paymentEventHandler('toString')).toBeUndefined();
});

test('the handlers cover exactly the one list of handled event types, and each type comes by one of the two Stripe endpoints', () => {
  expect(Object.keys(PAYMENT_EVENT_HANDLERS).sort()).toEqual(Object.keys(HANDLED_PAYMENT_EVENTS).sort());
  expect(eventTypesOf('connect')).toEqual(['account.updated', 'payout.failed']);
  expect([...eventTypesOf('platform'), ...eventTypesOf('connect')].sort()).toEqual(Object.keys(HANDLED_PAYMENT_EVENTS).sort());
});
