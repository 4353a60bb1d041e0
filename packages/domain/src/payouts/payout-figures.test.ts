import { expect, test } from 'vitest';
import type { OrderLineItem } from '@hm/db/entities';
import { addMonths, payoutFigures, startedMonths } from './payout-figures.js';

const line = (code: OrderLineItem['code'], amount: number): OrderLineItem => ({ code, label: code, unit_price: amount, quantity: 1, amount });
const soldAt = new Date('2031-03-03T09:00:00Z');

test('storage: nothing up to the last free moment; every started month after it', () => {
  const storedAt = new Date('2031-01-01T00:00:00Z');
  const free = new Date('2031-01-15T00:00:00Z'); // 2 weeks
  expect(startedMonths(storedAt, 2, free)).toBe(0);
  expect(startedMonths(storedAt, 2, new Date(free.getTime() + 1))).toBe(1);
  expect(startedMonths(storedAt, 2, new Date('2031-02-15T00:00:00Z'))).toBe(1);
  expect(startedMonths(storedAt, 2, new Date('2031-02-15T00:00:00.001Z'))).toBe(2);
  expect(startedMonths(storedAt, 0, storedAt)).toBe(0);
  expect(startedMonths(storedAt, 0, new Date('2031-04-01T00:00:00Z'))).toBe(3);
  expect(addMonths(new Date('2031-01-31T12:00:00Z'), 1).toISOString()).toBe('2031-02-28T12:00:00.000Z');
});

test('seller-shipped: shipping is the seller’s; marketplace-shipped: the marketplace’s; a voucher never lowers the subtotal', () => {
  const lines = [line('item', 100_000), line('shipping', 4900), line('voucher', -10_000)];
  expect(payoutFigures({ lineItems: lines, fulfilment: 'seller', commissionPercent: 12.5, soldAt })).toEqual({
    subtotal: 104_900,
    commission: 12_500,
    storageFee: 0,
    storageMonths: 0,
    amount: 92_400,
    marketplaceShipping: 0,
    voucher: 10_000,
  });
  expect(payoutFigures({ lineItems: lines, fulfilment: 'marketplace', commissionPercent: 12.5, soldAt })).toMatchObject({ subtotal: 100_000, amount: 87_500, marketplaceShipping: 4900 });
});

test('storage fees are taken from the payout, which never goes below 0', () => {
  const storage = { storedAt: new Date('2030-01-01T00:00:00Z'), freeWeeks: 0, monthlyFee: 2900 };
  const small = payoutFigures({ lineItems: [line('item', 10_000)], fulfilment: 'marketplace', commissionPercent: 10, storage, soldAt });
  expect(small).toMatchObject({ storageMonths: 15, storageFee: 43_500, commission: 1000, amount: 0 });
});
