import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { ApiMode } from '../core/context.js';

/**
 * Sending one webhook safely. In live mode a target must be `https://` and every address its host
 * resolves to public: no loopback, private, shared, link-local (cloud metadata), multicast or
 * reserved range. The check runs at each delivery (a name may resolve elsewhere since it was saved:
 * DNS rebinding) and the connection goes to the address checked, never resolved again. Redirects are
 * not followed (a 3xx is a failed attempt); at most 64 KB of a response is read; 10 s in all. Test
 * mode allows `http://` and local addresses, so developers can receive on their own machine.
 */

export const TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** what the delivery log keeps of a response */
export const LOGGED_RESPONSE_BYTES = 1024;

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24],
  ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) blocked.addSubnet(net, prefix, 'ipv6');

/** A public unicast address (an IPv4-mapped IPv6 address is judged by its IPv4 part). */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address); // the same, as URLs write it (::ffff:7f00:1)
  if (hex) {
    const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return isPublicAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  const family = isIP(address);
  if (family === 0) return false;
  return !blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;
const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

export type Target = { ok: true; url: URL; address?: { address: string; family: number } } | { ok: false; reason: string };

/** Whether a URL may be sent to now, and the address to connect to (live mode). */
export async function checkTarget(raw: string, mode: ApiMode, resolve: Resolve = systemResolve): Promise<Target> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'Not a URL.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'Only http(s) URLs receive webhooks.' };
  if (url.username || url.password) return { ok: false, reason: 'A webhook URL carries no user name or password.' };
  if (mode === 'test') return { ok: true, url };
  if (url.protocol !== 'https:') return { ok: false, reason: 'Live webhooks go to https:// URLs only.' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  } catch (e) {
    return { ok: false, reason: `The host ${host} does not resolve (${(e as Error).message}).` };
  }
  if (!addresses.length) return { ok: false, reason: `The host ${host} does not resolve.` };
  const inner = addresses.find((a) => !isPublicAddress(a.address));
  if (inner) return { ok: false, reason: `The host ${host} resolves to ${inner.address}, which is not a public address.` };
  return { ok: true, url, address: addresses[0]! };
}

export interface SendResult {
  status: number | null;
  error: string | null;
  /** the first LOGGED_RESPONSE_BYTES of the response body */
  response: string | null;
  durationMs: number;
}

/** POSTs the body to a checked target; never throws (a failure is in `error`). */
export function send(target: Extract<Target, { ok: true }>, headers: Record<string, string>, body: string, now: () => number = Date.now): Promise<SendResult> {
  const started = now();
  const pinned = target.address;
  const lookup: LookupFunction | undefined = pinned
    ? (_host, opts, cb) => {
        if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
        else cb(null, pinned.address, pinned.family);
      }
    : undefined;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: now() - started });
    };
    const client = target.url.protocol === 'https:' ? https : http;
    const req = client.request(target.url, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'hm-webhooks/1', ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const text = Buffer.concat(chunks).subarray(0, LOGGED_RESPONSE_BYTES).toString('utf8');
        const status = res.statusCode ?? null;
        finish({ status, error: status !== null && status >= 200 && status < 300 ? null : `HTTP ${status}`, response: text });
      };
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (chunks.reduce((n, c) => n + c.length, 0) < LOGGED_RESPONSE_BYTES) chunks.push(chunk);
        if (size >= MAX_RESPONSE_BYTES) {
          done(); // read no further
          res.destroy();
        }
      });
      res.on('end', done);
      res.on('error', done);
    });
    const timer = setTimeout(() => {
      finish({ status: null, error: `No answer within ${TIMEOUT_MS / 1000} s.`, response: null });
      req.destroy();
    }, TIMEOUT_MS);
    req.on('error', (e) => finish({ status: null, error: e.message, response: null }));
    req.end(body);
  });
}
