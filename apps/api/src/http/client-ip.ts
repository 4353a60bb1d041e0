import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@hm/contract/problems';

/**
 * `X-Client-IP`: the shopper's IP address as the storefront's server saw it. Only a secret key may
 * send it (a browser holding a publishable key could claim any address), and then per-IP sign-in
 * limits count it; with any other key, or without it, the API knows no client address.
 */
export const CLIENT_IP_HEADER = 'x-client-ip';

declare module 'fastify' {
  interface FastifyRequest {
    /** the client's address as counted by per-IP limits (see `clientIpOf`) */
    clientIp?: string;
  }
}

/**
 * The subject per-IP limits count: an IPv4 address as given (an IPv4-mapped IPv6 address as its IPv4
 * address), an IPv6 address as its /64 network, which one subscriber usually holds in full.
 * Undefined when `ip` is not one IP address.
 */
export function rateLimitSubject(ip: string): string | undefined {
  const kind = isIP(ip);
  if (kind === 4) return ip;
  if (kind !== 6 || ip.includes('%')) return undefined;
  // the URL parser's canonical form: lower case, leading zeros dropped, the longest zero run as ::
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right].map((g) => parseInt(g, 16));
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** Reads `X-Client-IP` once the key is known: kept with a secret key, refused (400) when it is not an IP address. */
export function resolveClientIp(req: FastifyRequest): void {
  const raw = req.headers[CLIENT_IP_HEADER];
  if (raw === undefined) return;
  const auth = req.apiAuth;
  if (!auth || auth instanceof DomainError || auth.kind !== 'secret') return;
  const value = Array.isArray(raw) ? undefined : raw;
  const subject = value === undefined ? undefined : rateLimitSubject(value);
  if (subject === undefined) {
    throw new DomainError('malformed_request', 'X-Client-IP must be one IPv4 or IPv6 address (the shopper\'s, as your server saw it).', {
      errors: [{ location: 'header.X-Client-IP', message: 'Must be one IPv4 or IPv6 address.', value: raw }],
    });
  }
  req.clientIp = subject;
}
