import { VoucherSchema, type Marketplace } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { ConflictError, ValidationError } from '../../core/errors.js';
import { toVoucherBody, type VoucherInput } from '../voucher.schema.js';
import { usesOf, voucherIdByCode } from '../vouchers.queries.js';

/** Console `vouchers create`: one voucher per code (case-insensitive) and marketplace. */
export async function createVoucher(em: EntityManager, m: Marketplace, input: VoucherInput, now: Date) {
  if (input.currency && !m.currencies.includes(input.currency)) {
    throw new ValidationError([{ location: 'currency', message: `Must be one of the marketplace's currencies: ${m.currencies.join(', ') || 'none chosen yet'}.`, value: input.currency }]);
  }
  if (await voucherIdByCode(em, input.code)) throw new ConflictError(`This marketplace has a voucher with the code ${input.code} already (codes are case-insensitive).`);
  const v = em.create(VoucherSchema, {
    marketplaceId: m.id,
    code: input.code,
    percent: input.percent ?? null,
    amount: input.amount ?? null,
    currency: input.currency ?? null,
    minTotal: input.min_total ?? null,
    startsAt: input.starts_at ? new Date(input.starts_at) : null,
    endsAt: input.ends_at ? new Date(input.ends_at) : null,
    maxUses: input.max_uses ?? null,
    oncePerBuyer: input.once_per_buyer ?? false,
    createdAt: now,
  });
  await em.flush();
  return toVoucherBody(v, 0);
}

/** Console `vouchers list`: newest first, each with its uses (orders whose payment did not expire). */
export async function listVouchers(em: EntityManager) {
  const vouchers = await em.find(VoucherSchema, {}, { orderBy: { createdAt: 'desc', id: 'desc' } });
  const uses = await usesOf(em, vouchers.map((v) => v.id));
  return vouchers.map((v) => toVoucherBody(v, uses.get(v.id) ?? 0));
}
