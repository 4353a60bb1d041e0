import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns } from './common.js';

/**
 * A discount code of a marketplace (its record shape is ours; docs/decisions.md). Either `percent`
 * of the items or a fixed `amount` in `currency`; `min_total` is in `currency` too. Uses are the
 * voucher's orders whose payment did not expire, counted under a lock of this row.
 */
export const VoucherSchema = defineEntity({
  name: 'Voucher',
  tableName: 'vouchers',
  properties: {
    ...tenantColumns(),
    code: p.string(),
    percent: p.double().nullable(),
    amount: p.bigint('number').nullable(),
    currency: p.string().nullable(),
    minTotal: p.bigint('number').nullable(),
    startsAt: p.datetime().nullable(),
    endsAt: p.datetime().nullable(),
    maxUses: p.integer().nullable(),
    oncePerBuyer: p.boolean(),
  },
});
export type Voucher = InferEntity<typeof VoucherSchema>;
