'use server';

import { change, text, valuesOf } from '../lib/actions';
import { currencyDigits, minorUnits } from '../lib/format';
import type { FormState } from '../lib/problems';

/**
 * Vouchers, exchange rates and payouts: the admins' changes, one server action each through the
 * operator's own session (team-actions.ts holds the rest; the same `change()`).
 */

const VOUCHER_FIELDS = ['code', 'kind', 'value', 'currency', 'min_total', 'ends_at', 'max_uses', 'once_per_buyer'];

/** A voucher: `percent` off, or a fixed `amount` in `currency` (typed in the currency's units); an optional minimum, end date and number of uses. */
export async function createVoucher(_: FormState, form: FormData): Promise<FormState> {
  const currency = text(form, 'currency');
  const digits = currencyDigits(currency);
  const errors: Record<string, string> = {};
  const input: Record<string, unknown> = { code: text(form, 'code') };
  const value = text(form, 'value').replace(',', '.');
  if (text(form, 'kind') === 'amount') {
    input.amount = minorUnits(value, digits);
    if (Number.isNaN(input.amount)) errors.value = 'Must be an amount, e.g. 50 or 49.50.';
  } else {
    input.percent = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isNaN(input.percent)) errors.value = 'Must be a percentage, e.g. 10.';
  }
  if (currency) input.currency = currency;
  const minTotal = text(form, 'min_total');
  if (minTotal) {
    input.min_total = minorUnits(minTotal, digits);
    if (Number.isNaN(input.min_total)) errors.min_total = 'Must be an amount, e.g. 500.';
  }
  const endsAt = text(form, 'ends_at');
  if (endsAt) input.ends_at = /^\d{4}-\d{2}-\d{2}$/.test(endsAt) ? `${endsAt}T00:00:00Z` : endsAt;
  const maxUses = text(form, 'max_uses');
  if (maxUses) input.max_uses = /^\d+$/.test(maxUses) ? Number(maxUses) : maxUses;
  if (form.get('once_per_buyer') === 'on') input.once_per_buyer = true;
  if (Object.keys(errors).length) return { errors, values: valuesOf(form, VOUCHER_FIELDS) };
  return change(
    form,
    VOUCHER_FIELDS,
    async (api, context) => {
      const { voucher } = await api.vouchers.create.mutate(input as never, { context });
      return { code: String(voucher.code ?? input.code) };
    },
    // the API names `percent` and `amount`; the form has one field for either
    { revalidate: ['/vouchers'], fieldOf: (p) => (p === 'percent' || p === 'amount' ? 'value' : p) },
  );
}

/** Rates from a day on: `SEK=11.52, USD=1.05` (1 base buys this much of each). */
export async function setRates(_: FormState, form: FormData): Promise<FormState> {
  const fields = ['date', 'base', 'rates'];
  const rates: Record<string, number> = {};
  for (const pair of text(form, 'rates').split(/[,;\n]+/).map((s) => s.trim()).filter(Boolean)) {
    const m = /^([A-Za-z]{3})\s*[=:]\s*(\d+(?:[.,]\d+)?)$/.exec(pair);
    if (!m) return { errors: { rates: `“${pair}” is not CODE=rate, e.g. SEK=11.52.` }, values: valuesOf(form, fields) };
    rates[m[1]!.toUpperCase()] = Number(m[2]!.replace(',', '.'));
  }
  return change(form, fields, (api, context) => api.rates.set.mutate({ date: text(form, 'date'), base: text(form, 'base').toUpperCase(), rates }, { context }).then(() => undefined), {
    revalidate: ['/rates'],
    fieldOf: (p) => p.split('.')[0]!,
  });
}

/** A failed payout back to pending (paid in the background, or failing again with the reason). */
export async function retryPayout(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  if (form.get('confirm') !== 'on') return { errors: { confirm: 'Tick the box to confirm: the seller is paid again.' } };
  return change(form, ['confirm'], (api, context) => api.payouts.retry.mutate({ id }, { context }).then(() => undefined), { revalidate: ['/payouts', `/orders/${id}`, '/'] });
}
