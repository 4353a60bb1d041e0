import sharp from 'sharp';
import type { Page } from 'playwright-core';
import type { Stack } from './stack.js';

/**
 * A shop worth walking through, made the way a storefront developer would: sellers sign up and
 * list through the API (photos through the real upload and image worker), operators set up the
 * catalogue and shipping through the console.
 */

export async function call<T>(stack: Stack, method: string, path: string, opts: { session?: string; json?: unknown; bytes?: Buffer } = {}): Promise<T> {
  const res = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${stack.secretKey}`,
      ...(opts.session ? { 'x-user-session': opts.session } : {}),
      ...(opts.json !== undefined ? { 'content-type': 'application/json' } : opts.bytes ? { 'content-type': 'image/jpeg' } : {}),
    },
    body: opts.json !== undefined ? JSON.stringify(opts.json) : opts.bytes ? new Uint8Array(opts.bytes) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A JPEG of one colour with a darker band, so photos differ on screen and in bytes. */
export function photo(color: string, width = 1600, height = 1200): Promise<Buffer> {
  const band = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect x="0" y="${height * 0.6}" width="${width}" height="${height * 0.15}" fill="rgba(0,0,0,0.35)"/></svg>`);
  return sharp({ create: { width, height, channels: 3, background: color } })
    .composite([{ input: band }])
    .jpeg()
    .toBuffer();
}

export async function signUp(stack: Stack, email: string, displayName?: string): Promise<string> {
  const body = await call<{ session: { token: string } }>(stack, 'POST', '/v1/users', { json: { email, password: 'newcomer password', ...(displayName ? { display_name: displayName } : {}) } });
  return body.session.token;
}

export interface ListingImage {
  id: string;
  status: string;
  urls?: { thumb: string; medium: string; large: string };
}

/** Waits until the worker has made every photo's sizes (the photo pipeline runs in the stack's worker). */
export async function readyImages(stack: Stack, session: string, id: string, count: number): Promise<ListingImage[]> {
  const until = Date.now() + 30_000;
  for (;;) {
    const l = await call<{ images: ListingImage[] }>(stack, 'GET', `/v1/me/listings/${id}`, { session });
    if (l.images.length >= count && l.images.every((i) => i.status === 'ready')) return l.images;
    if (Date.now() > until) throw new Error(`photos of ${id} not ready: ${JSON.stringify(l.images)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A listing on sale with these photos (and the shipping size the team sets, when it ships). */
export async function listOnSale(stack: Stack, session: string, content: Record<string, unknown>, colors: string[], shippingSize?: string): Promise<string> {
  const { id } = await call<{ id: string }>(stack, 'POST', '/v1/me/listings', { session, json: content });
  for (const color of colors) await call(stack, 'POST', `/v1/me/listings/${id}/images`, { session, bytes: await photo(color) });
  await readyImages(stack, session, id, colors.length);
  if (shippingSize) await stack.operator.listings.setShippingSize({ id, size: shippingSize });
  await call(stack, 'POST', `/v1/me/listings/${id}/publish`, { session, json: {} });
  return id;
}

export function myListing(stack: Stack, session: string, id: string) {
  return call<{ status: string; images: ListingImage[] }>(stack, 'GET', `/v1/me/listings/${id}`, { session });
}

/** Signs up in the browser (the session cookie is the storefront's own). */
export async function signUpInBrowser(page: Page, lang: 'en' | 'sv', email: string) {
  await page.goto(`/${lang}/auth/sign-up`);
  await page.getByLabel(lang === 'sv' ? 'E-postadress' : 'Email address').fill(email);
  await page.getByLabel(lang === 'sv' ? 'Lösenord' : 'Password').fill('newcomer password');
  await page.getByRole('button', { name: lang === 'sv' ? 'Skapa konto' : 'Create account' }).click();
  await page.waitForURL(`**/${lang}/account?welcome=1`);
}

/** Text a person must never read: zod's and the API's own words for developers. */
export const RAW_TEXT = /Too (big|small)|expected (string|number)|Invalid input|\b(body|query|path)\.[a-z_]|ISO 3166|ISO 4217|buyer_arranged|needed to publish|Must be |Required\./;

/**
 * How far the page's main content reaches past the window's right edge (0 or less: no sideways
 * scrolling because of it). The header is measured by the layout tests of every page.
 */
export function horizontalOverflow(page: Page, within = 'main'): Promise<number> {
  return page.evaluate((selector) => {
    const right = Math.max(...[...document.querySelectorAll(`${selector}, ${selector} *`)].map((e) => e.getBoundingClientRect().right));
    return Math.ceil(right - document.documentElement.clientWidth);
  }, within);
}
