/**
 * Every cookie the storefront sets is httpOnly, SameSite=Lax and Path=/. In a production build
 * (`next build`, as `npm start` serves it) it is also always `Secure` and named with the `__Host-`
 * prefix, whatever STOREFRONT_URL says: the browser sends it over https only (browsers count
 * http://localhost as secure too) and no subdomain can set or shadow it. `next dev` keeps plain
 * names without `Secure`, so a developer can open it from another machine over http.
 */
export const SECURE_COOKIES = process.env.NODE_ENV === 'production';

export function cookieName(name: string): string {
  return SECURE_COOKIES ? `__Host-${name}` : name;
}

export function cookieOptions(maxAgeSeconds: number) {
  return { httpOnly: true, sameSite: 'lax', secure: SECURE_COOKIES, path: '/', maxAge: maxAgeSeconds } as const;
}
