import { z } from 'zod';
import type { Voucher } from '@hm/db/entities';
import { ZCurrencyCode, ZDateTime } from '../core/schemas.js';

/**
 * The voucher record (ours: the spec leaves it open; docs/decisions.md). A voucher takes `percent`
 * off the items, or a fixed `amount` in `currency`; `min_total` (in `currency`) is the items' amount
 * it needs; it is valid from `starts_at` until before `ends_at`; `max_uses` caps its uses in all
 * and `once_per_buyer` to one per buyer. Codes are compared case-insensitively.
 */
export const ZVoucherInput = z
  .strictObject({
    code: z
      .string()
      .min(1)
      .max(40)
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'Letters, digits, "-" and "_".')
      .describe('What buyers type; case-insensitive.'),
    percent: z.number().gt(0).max(100).optional().describe('Percent off the items.'),
    amount: z.number().int().min(1).optional().describe('Fixed amount off the items, minor units of `currency`.'),
    currency: ZCurrencyCode.optional().describe('Currency of `amount` and `min_total`; converted to the order currency at the day’s rate.'),
    min_total: z.number().int().min(0).optional().describe('The items must come to at least this (minor units of `currency`).'),
    starts_at: ZDateTime.optional(),
    ends_at: ZDateTime.optional().describe('Valid until before this instant.'),
    max_uses: z.number().int().min(1).optional().describe('Uses in all; a use comes back when its payment expires.'),
    once_per_buyer: z.boolean().optional().describe('At most one use per buyer.'),
  })
  .superRefine((v, ctx) => {
    if ((v.percent === undefined) === (v.amount === undefined)) ctx.addIssue({ code: 'custom', path: ['percent'], message: 'Give either percent or amount (with currency).' });
    if ((v.amount !== undefined || v.min_total !== undefined) && !v.currency) ctx.addIssue({ code: 'custom', path: ['currency'], message: 'A currency is needed with amount or min_total.' });
    if (v.starts_at && v.ends_at && Date.parse(v.starts_at) >= Date.parse(v.ends_at)) ctx.addIssue({ code: 'custom', path: ['ends_at'], message: 'Must be after starts_at.' });
  });
export type VoucherInput = z.infer<typeof ZVoucherInput>;

export function toVoucherBody(v: Voucher, uses: number) {
  const opt = <K extends string, T>(key: K, value: T | null | undefined) => (value === null || value === undefined ? {} : ({ [key]: value } as Record<K, T>));
  return {
    id: v.id,
    code: v.code,
    ...opt('percent', v.percent === null || v.percent === undefined ? undefined : Number(v.percent)),
    ...opt('amount', v.amount),
    ...opt('currency', v.currency),
    ...opt('min_total', v.minTotal),
    ...opt('starts_at', v.startsAt?.toISOString()),
    ...opt('ends_at', v.endsAt?.toISOString()),
    ...opt('max_uses', v.maxUses),
    once_per_buyer: v.oncePerBuyer,
    uses,
    created_at: v.createdAt.toISOString(),
  };
}
