import type { Listing, Site } from '@hm/db/entities';
import { describe, expect, test } from 'vitest';
import type { ShippingTableBody } from '../../marketplace/index.js';
import { offeredMethods, zoneFor } from './delivery.js';

const table: ShippingTableBody = {
  sizes: [{ key: 'small', name: 'Small' }],
  zones: [
    { key: 'se', name: 'Sweden', countries: ['SE'] },
    { key: 'sthlm', name: 'Stockholm', countries: ['SE'], postal_prefixes: ['1'] },
    { key: 'sthlm-c', name: 'Stockholm city', countries: ['SE'], postal_prefixes: ['111', '113'] },
    { key: 'nordic', name: 'Nordics', countries: ['NO', 'DK', 'FI'] },
  ],
};

describe('the buyer’s zone', () => {
  test('the longest postal prefix wins, else the whole-country zone; spaces and case do not matter', () => {
    expect(zoneFor(table, { country: 'SE', postal_code: '111 46' })).toBe('sthlm-c');
    expect(zoneFor(table, { country: 'SE', postal_code: '12345' })).toBe('sthlm');
    expect(zoneFor(table, { country: 'SE', postal_code: '41101' })).toBe('se');
    expect(zoneFor(table, { country: 'DK', postal_code: '1050' })).toBe('nordic');
    expect(zoneFor(table, { country: 'DE', postal_code: '10115' })).toBeUndefined();
    expect(zoneFor({ ...table, zones: [{ key: 'gb', name: 'London', countries: ['GB'], postal_prefixes: ['sw1'] }] }, { country: 'GB', postal_code: 'SW1A 1AA' })).toBe('gb');
  });
});

describe('the methods a listing offers', () => {
  const listing = (custody: Listing['custody'], delivery: Listing['delivery']) => ({ custody, delivery }) as Listing;
  const pickupSite = { buyerPickup: true } as Site;
  test('with the seller: its own methods', () => {
    expect(offeredMethods(listing('seller', { pickup: true, shipping: { price: 1 }, buyer_arranged: true }), undefined)).toEqual(['shipping', 'pickup', 'buyer_arranged']);
    expect(offeredMethods(listing('collecting', { pickup: true }), pickupSite)).toEqual(['pickup']);
  });
  test('stored with the marketplace: shipping, and collect where the site lets buyers pick up', () => {
    expect(offeredMethods(listing('stored', { pickup: true, shipping: {} }), pickupSite)).toEqual(['shipping', 'collect']);
    expect(offeredMethods(listing('stored', { pickup: true }), { buyerPickup: false } as Site)).toEqual([]);
  });
});
