import { expect, test } from 'vitest';
import { LISTING_EFFECT_SLOTS } from '../listings/index.js';
import { ORDER_EFFECT_SLOTS } from '../orders/index.js';
import { paymentEventHandler } from './payment-events.js';
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
