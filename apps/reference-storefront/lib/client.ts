/**
 * Who the client is, as the storefront's server (server.ts) decided it from the connection and the
 * trusted proxies: shared by server.ts and the pages (no Next or server-only imports here).
 */

/** The client's IP address, set by server.ts on every request (a client's own header of this name is replaced). */
export const CLIENT_IP_HEADER = 'x-shop-client-ip';
/** Set by server.ts when forwarding headers came from a peer that is not a trusted proxy (they were dropped). */
export const FORWARDED_BY_UNTRUSTED_HEADER = 'x-shop-untrusted-forwarding';

/** 127.0.0.0/8 and ::1 (an IPv4-mapped loopback address too). */
export function isLoopbackIp(ip: string | null | undefined): boolean {
  if (!ip) return false;
  const v4 = ip.replace(/^::ffff:/i, '');
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || ip === '::1';
}

/** `localhost`, `127.0.0.1`, `[::1]` with any port: the name a browser on this machine uses. */
export function isLoopbackHost(host: string | null | undefined): boolean {
  if (!host) return false;
  const name = host.replace(/:\d+$/, '').toLowerCase();
  return name === 'localhost' || name === '[::1]' || isLoopbackIp(name);
}

export type DevMailboxSetting = 'off' | 'loopback' | 'any';

/** STOREFRONT_DEV_MAILBOX: `loopback` or `any` turn the dev mailbox on; anything else (unset included) is off. */
export function devMailboxSetting(value: string | undefined): DevMailboxSetting {
  return value === 'loopback' || value === 'any' ? value : 'off';
}

/**
 * Whether this request may see the dev mailbox (every email the shop sent, sign-in links included):
 * only in test mode, only when STOREFRONT_DEV_MAILBOX turns it on, and with `loopback` only for a
 * browser on this machine — a loopback client, asking for a loopback host name (a proxy or a
 * rebinding DNS name says otherwise), with no forwarding headers from an untrusted proxy.
 */
export function devMailboxOpen(request: Headers, setting: DevMailboxSetting, testMode: boolean): boolean {
  if (!testMode || setting === 'off') return false;
  if (setting === 'any') return true;
  return isLoopbackIp(request.get(CLIENT_IP_HEADER)) && isLoopbackHost(request.get('host')) && request.get(FORWARDED_BY_UNTRUSTED_HEADER) === null;
}
