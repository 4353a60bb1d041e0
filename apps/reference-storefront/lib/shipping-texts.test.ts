import { expect, test } from 'vitest';
import { deliveryTime, shippingName, sizeText } from './shipping-texts';

const size = { name: 'Small parcel', names: { en: 'Small parcel', sv: 'Litet paket' }, about: 'Fits in a shoebox', abouts: { sv: 'Ryms i en skokartong' } };
const zone = { name: 'Sweden', names: { sv: 'Sverige' }, delivery_time: '1–3 days', delivery_times: { sv: '1–3 dagar' } };

test('the page language’s text, its base language’s, else the default name', () => {
  expect(shippingName(zone, 'sv')).toBe('Sverige');
  expect(shippingName(zone, 'sv-FI')).toBe('Sverige');
  expect(shippingName(zone, 'de')).toBe('Sweden');
  expect(deliveryTime(zone, 'sv')).toBe('1–3 dagar');
  expect(deliveryTime(zone, 'en')).toBe('1–3 days');
  expect(deliveryTime({ name: 'X' }, 'sv')).toBeUndefined();
  expect(sizeText(size, 'sv')).toBe('Litet paket (Ryms i en skokartong)');
  expect(sizeText(size, 'en')).toBe('Small parcel (Fits in a shoebox)');
  expect(sizeText({ name: 'Large' }, 'sv')).toBe('Large');
});
