import { describe, expect, test } from 'vitest';
import { sellerStanding } from './listing-state';
import { messages } from './messages';

const en = messages('en').listings;
const sv = messages('sv').listings;

describe('sellerStanding', () => {
  test('published with stock left: on sale, and how many are left once more than one was listed or some sold', () => {
    expect(sellerStanding({ status: 'published', stock: 1, units_sold: 0, units_reserved: 0 }, en)).toEqual({ key: 'published', label: 'On sale' });
    expect(sellerStanding({ status: 'published', stock: 2, units_sold: 0, units_reserved: 0 }, en)).toEqual({ key: 'published', label: 'On sale', detail: '2 left' });
    expect(sellerStanding({ status: 'published', stock: 1, units_sold: 2, units_reserved: 1 }, sv)).toEqual({ key: 'published', label: 'Till salu', detail: '1 kvar · 2 sålda · 1 reserverade' });
  });

  test('stock 0: sold when nothing is waiting for payment, reserved while an order is (en, sv)', () => {
    expect(sellerStanding({ status: 'published', stock: 0, units_sold: 1, units_reserved: 0 }, en)).toEqual({ key: 'sold', label: 'Sold' });
    expect(sellerStanding({ status: 'published', stock: 0, units_sold: 3, units_reserved: 0 }, sv)).toEqual({ key: 'sold', label: 'Såld', detail: '3 sålda' });
    expect(sellerStanding({ status: 'published', stock: 0, units_sold: 0, units_reserved: 1 }, en)).toMatchObject({ key: 'reserved', label: 'Reserved', detail: expect.stringContaining('The last item is held for a buyer who has not paid yet') });
    expect(sellerStanding({ status: 'published', stock: 0, units_sold: 1, units_reserved: 2 }, sv)).toMatchObject({ key: 'reserved', label: 'Reserverad', detail: expect.stringContaining('2 exemplar är reserverade') });
  });

  test('other statuses say their status', () => {
    expect(sellerStanding({ status: 'draft', stock: 1 }, en)).toEqual({ key: 'draft', label: 'Draft' });
    expect(sellerStanding({ status: 'closed', stock: 0, units_sold: 1 }, sv)).toEqual({ key: 'closed', label: sv.status.closed });
  });
});
