import 'server-only';
import { cookies } from 'next/headers';
import type { ApiOutputs } from './api';
import { CHECKOUT_URL_FIELDS } from './checkout-fields';
import { cookieName, cookieOptions } from './cookies';

export { CHECKOUT_URL_FIELDS };

export type Order = ApiOutputs['me']['orders']['get'];
export type Quote = ApiOutputs['me']['orders']['quote'];
export type LineItem = Order['line_items'][number];

export const CHECKOUT_FIELDS = ['quantity', 'method', 'option', 'name', 'line1', 'line2', 'postal_code', 'city', 'country', 'phone', 'voucher_code'] as const;
export type CheckoutValues = Partial<Record<(typeof CHECKOUT_FIELDS)[number], string>>;
const ADDRESS = ['name', 'line1', 'line2', 'postal_code', 'city', 'country', 'phone'] as const;
const PERSONAL = ['name', 'line1', 'line2', 'postal_code', 'city', 'phone'] as const;

export function checkoutValues(source: Record<string, string | string[] | undefined> | FormData, fields: readonly (typeof CHECKOUT_FIELDS)[number][] = CHECKOUT_FIELDS): CheckoutValues {
  const get = (k: string) => (source instanceof FormData ? source.get(k) : source[k]);
  const out: CheckoutValues = {};
  for (const k of fields) {
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
const payCookie = (orderId: string) => cookieName(`hm_pay_${orderId.replace(/[^0-9a-f-]/gi, '')}`);
const PAYMENT_WINDOW_S = 15 * 60;

export async function keepClientSecret(orderId: string, secret: string) {
  (await cookies()).set(payCookie(orderId), secret, cookieOptions(PAYMENT_WINDOW_S));
}

export async function clientSecretOf(orderId: string): Promise<string | undefined> {
  return (await cookies()).get(payCookie(orderId))?.value || undefined;
}

/** The page address's query for these choices: only CHECKOUT_URL_FIELDS. */
export function checkoutQuery(values: CheckoutValues): string {
  return new URLSearchParams(Object.entries(values).filter(([k]) => (CHECKOUT_URL_FIELDS as readonly string[]).includes(k))).toString();
}

/**
 * The address typed at checkout, kept between re-quotes on the server side of the browser: an
 * httpOnly cookie (Secure `__Host-` in production builds) for 30 minutes, for one listing, gone once
 * the order is placed.
 */
const DRAFT_COOKIE = cookieName('hm_checkout');
const DRAFT_S = 30 * 60;

export async function keepCheckoutDraft(listingId: string, values: CheckoutValues) {
  const personal = Object.fromEntries(PERSONAL.flatMap((k) => (values[k] ? [[k, values[k].slice(0, 300)]] : [])));
  const jar = await cookies();
  if (Object.keys(personal).length === 0) {
    if (jar.has(DRAFT_COOKIE)) jar.delete(DRAFT_COOKIE);
  } else jar.set(DRAFT_COOKIE, Buffer.from(JSON.stringify({ listing: listingId, values: personal })).toString('base64url'), cookieOptions(DRAFT_S));
}

export const checkoutDraft = (listingId: string) => keptValues(DRAFT_COOKIE, { listing: listingId }, PERSONAL);

/** Values kept in one of checkout's cookies, only when it belongs to `owner` (that listing, that user). */
async function keptValues(cookie: string, owner: { listing: string } | { user: string }, fields: readonly (typeof CHECKOUT_FIELDS)[number][]): Promise<CheckoutValues> {
  const raw = (await cookies()).get(cookie)?.value;
  if (!raw) return {};
  try {
    const kept = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown> & { values?: Record<string, unknown> };
    const [key, value] = Object.entries(owner)[0]!;
    return kept[key] === value && kept.values ? checkoutValues(kept.values as Record<string, string>, fields) : {};
  } catch {
    return {};
  }
}

/**
 * The buyer's last delivery address, kept for their next checkout: an httpOnly cookie (Secure
 * `__Host-` in production builds) for 180 days, for that signed-in user only, written when an order
 * is placed and gone at sign-out.
 */
const ADDRESS_COOKIE = cookieName('hm_address');
const ADDRESS_S = 180 * 24 * 3600;
const REMEMBERED = [...PERSONAL, 'country'] as const;

export async function rememberAddress(userId: string, values: CheckoutValues) {
  const address = Object.fromEntries(REMEMBERED.flatMap((k) => (values[k] ? [[k, values[k].slice(0, 300)]] : [])));
  if (!address.postal_code) return;
  (await cookies()).set(ADDRESS_COOKIE, Buffer.from(JSON.stringify({ user: userId, values: address })).toString('base64url'), cookieOptions(ADDRESS_S));
}

export const rememberedAddress = (userId: string) => keptValues(ADDRESS_COOKIE, { user: userId }, REMEMBERED);

export async function forgetCheckoutDraft(opts: { address?: boolean } = {}) {
  const jar = await cookies();
  if (jar.has(DRAFT_COOKIE)) jar.delete(DRAFT_COOKIE);
  if (opts.address && jar.has(ADDRESS_COOKIE)) jar.delete(ADDRESS_COOKIE);
}

/** Whether the viewer bought or sold the order (the API shows it to no one else). */
export const viewerOf = (order: Order, userId: string): 'buyer' | 'seller' => (order.buyer_id === userId ? 'buyer' : 'seller');
