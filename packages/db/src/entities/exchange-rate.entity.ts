import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns } from './common.js';

/** 1 `base` = `rate` `quote` on `date` (the day it takes effect); `rate` is the exact decimal given (`numeric`). */
export const ExchangeRateSchema = defineEntity({
  name: 'ExchangeRate',
  tableName: 'exchange_rates',
  properties: {
    ...tenantColumns(),
    date: p.string().columnType('date'),
    base: p.string(),
    quote: p.string(),
    rate: p.decimal('number'),
  },
});
export type ExchangeRate = InferEntity<typeof ExchangeRateSchema>;
