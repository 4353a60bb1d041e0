import 'server-only';
import { cookies } from 'next/headers';
import type { ApiOutputs } from './api';

export type Order = ApiOutputs['me']['orders']['get'];
export type Quote = ApiOutputs['me']['orders']['quote'];
export type LineItem = Order['line_items'][number];

/** What checkout keeps in its address (`/<lang>/checkout/<id>?method=…&country=…`): the page re-quotes from it. */
export const CHECKOUT_FIELDS = ['quantity', 'method', 'option', 'name', 'line1', 'line2', 'postal_code', 'city', 'country', 'phone', 'voucher_code'] as const;
export type CheckoutValues = Partial<Record<(typeof CHECKOUT_FIELDS)[number], string>>;
const ADDRESS = ['name', 'line1', 'line2', 'postal_code', 'city', 'country', 'phone'] as const;

export function checkoutValues(source: Record<string, string | string[] | undefined> | FormData): CheckoutValues {
  const get = (k: string) => (source instanceof FormData ? source.get(k) : source[k]);
  const out: CheckoutValues = {};
  for (const k of CHECKOUT_FIELDS) {
    const v = get(k);
    if (typeof v === 'string' && v.trim() !== '') out[k] = v.trim();
  }
  return out;
}

/** PlaceOrder (and Quote) from checkout's fields: the address only once it has what zones need (country and postal code). */
export function orderInput(listingId: string, v: CheckoutValues) {
  const quantity = v.quantity && /^\d{1,3}$/.test(v.quantity) ? Number(v.quantity) : undefined;
  const address = v.country && v.postal_code ? Object.fromEntries(ADDRESS.flatMap((k) => (v[k] ? [[k, v[k]]] : []))) : undefined;
  const ships = v.method === 'shipping' || v.method === undefined;
  const delivery = { ...(v.method ? { method: v.method as 'shipping' } : {}), ...(v.option && ships ? { option: v.option } : {}), ...(address && ships ? { address: address as { country: string; postal_code: string } } : {}) };
  return {
    listing_id: listingId,
    ...(quantity ? { quantity } : {}),
    ...(Object.keys(delivery).length ? { delivery } : {}),
    ...(v.voucher_code ? { voucher_code: v.voucher_code } : {}),
  };
}

/** A problem's `delivery.address.country` → checkout's `country` field; `delivery.method` → `method`. */
export const checkoutFieldOf = (path: string) => path.replace(/^delivery\.address\./, '').replace(/^delivery\.address$/, 'postal_code').replace(/^delivery\./, '');

/**
 * The payment's client secret stays on the storefront's server: an httpOnly cookie per order, as
 * long as the payment window (15 minutes), read by the pay page (never in a URL or a script).
 */
const payCookie = (orderId: string) => `hm_pay_${orderId.replace(/[^0-9a-f-]/gi, '')}`;
const PAYMENT_WINDOW_S = 15 * 60;

export async function keepClientSecret(orderId: string, secret: string) {
  (await cookies()).set(payCookie(orderId), secret, {
    httpOnly: true,
    sameSite: 'lax',
    secure: (process.env.STOREFRONT_URL ?? '').startsWith('https:'),
    path: '/',
    maxAge: PAYMENT_WINDOW_S,
  });
}

export async function clientSecretOf(orderId: string): Promise<string | undefined> {
  return (await cookies()).get(payCookie(orderId))?.value || undefined;
}

/** Whether the viewer bought or sold the order (the API shows it to no one else). */
export const viewerOf = (order: Order, userId: string): 'buyer' | 'seller' => (order.buyer_id === userId ? 'buyer' : 'seller');
