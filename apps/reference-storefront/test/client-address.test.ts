import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { CLIENT_IP_HEADER, devMailboxOpen, devMailboxSetting, FORWARDED_BY_UNTRUSTED_HEADER } from '../lib/client';
import { identifyClient, trustedProxies } from '../server';

/** server.ts decides who the client is; lib/client.ts whether that client may see the dev mailbox. */
function request(peer: string, headers: Record<string, string> = {}): IncomingMessage {
  return { socket: { remoteAddress: peer }, headers: { ...headers } } as unknown as IncomingMessage;
}

describe('identifyClient', () => {
  const trusted = trustedProxies('10.0.0.5, ::ffff:10.0.0.6');

  test('no trusted proxy: the peer, forwarding headers dropped and the request marked', () => {
    const req = request('::ffff:203.0.113.7', { 'x-forwarded-for': '127.0.0.1', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', [CLIENT_IP_HEADER]: '127.0.0.1' });
    identifyClient(req, trusted);
    expect(req.headers[CLIENT_IP_HEADER]).toBe('203.0.113.7');
    expect(req.headers['x-forwarded-for']).toBeUndefined();
    expect(req.headers['x-forwarded-host']).toBeUndefined();
    expect(req.headers['x-forwarded-proto']).toBeUndefined();
    expect(req.headers[FORWARDED_BY_UNTRUSTED_HEADER]).toBe('1');
  });

  test('plain requests are not marked; a zone id is dropped', () => {
    const req = request('fe80::1%eth0', { [FORWARDED_BY_UNTRUSTED_HEADER]: '1' });
    identifyClient(req, trusted);
    expect(req.headers[CLIENT_IP_HEADER]).toBe('fe80::1');
    expect(req.headers[FORWARDED_BY_UNTRUSTED_HEADER]).toBeUndefined();
  });

  test('a trusted proxy: the rightmost address it did not add, its host and proto kept; a client’s own entries further left are not believed', () => {
    const req = request('10.0.0.5', { 'x-forwarded-for': '127.0.0.1, 198.51.100.9, 10.0.0.6', 'x-forwarded-host': 'shop.example', 'x-forwarded-proto': 'https' });
    identifyClient(req, trusted);
    expect(req.headers[CLIENT_IP_HEADER]).toBe('198.51.100.9');
    expect(req.headers['x-forwarded-host']).toBe('shop.example');
    expect(req.headers['x-forwarded-proto']).toBe('https');
  });

  test('a trusted proxy with garbage or nothing forwarded: the proxy itself', () => {
    for (const xff of ['not-an-ip', '', '10.0.0.5']) {
      const req = request('10.0.0.5', xff ? { 'x-forwarded-for': xff } : {});
      identifyClient(req, trusted);
      expect(req.headers[CLIENT_IP_HEADER], xff).toBe('10.0.0.5');
    }
  });

  test("a server action's redirect, which Next renders by requesting it from this server with its own X-Forwarded-*, keeps the original request's client", () => {
    const secret = 'process-secret';
    const forwarded = (original: IncomingMessage) =>
      request('127.0.0.1', { ...(original.headers as Record<string, string>), 'x-forwarded-for': '127.0.0.1', 'x-forwarded-host': 'localhost:3000', 'x-forwarded-proto': 'http', 'x-forwarded-port': '3000' });
    // a browser on this machine: still one after signing in (the dev mailbox stays in the header)
    const local = request('127.0.0.1', { host: 'localhost:3000' });
    identifyClient(local, trusted, secret);
    const again = forwarded(local);
    identifyClient(again, trusted, secret);
    expect(again.headers[CLIENT_IP_HEADER]).toBe('127.0.0.1');
    expect(again.headers[FORWARDED_BY_UNTRUSTED_HEADER]).toBeUndefined();
    expect(devMailboxOpen(new Headers(again.headers as Record<string, string>), 'loopback', true)).toBe(true);
    // a shopper elsewhere stays that shopper (not this machine), and a marked request stays marked
    const remote = request('203.0.113.7', { host: 'shop.example', 'x-forwarded-for': '127.0.0.1' });
    identifyClient(remote, trusted, secret);
    const continued = forwarded(remote);
    identifyClient(continued, trusted, secret);
    expect(continued.headers[CLIENT_IP_HEADER]).toBe('203.0.113.7');
    expect(continued.headers[FORWARDED_BY_UNTRUSTED_HEADER]).toBe('1');
  });

  test('the mark cannot come from outside: a guessed one, or the right one without a client address, is identified afresh', () => {
    const guessed = request('127.0.0.1', { 'x-shop-identified': 'guess', 'x-forwarded-for': '127.0.0.1', [CLIENT_IP_HEADER]: '127.0.0.1' });
    identifyClient(guessed, trusted, 'process-secret');
    expect(guessed.headers[FORWARDED_BY_UNTRUSTED_HEADER]).toBe('1');
    expect(guessed.headers['x-forwarded-for']).toBeUndefined();
    expect(guessed.headers['x-shop-identified']).toBe('process-secret');
    const bare = request('::ffff:203.0.113.7', { 'x-shop-identified': 'process-secret' });
    identifyClient(bare, trusted, 'process-secret');
    expect(bare.headers[CLIENT_IP_HEADER]).toBe('203.0.113.7');
  });

  test('STOREFRONT_TRUSTED_PROXIES must list IP addresses', () => {
    expect(() => trustedProxies('proxy.internal')).toThrow(/not an IP address/);
    expect([...trustedProxies('')]).toEqual([]);
  });
});

describe('devMailboxOpen', () => {
  const h = (o: Record<string, string>) => new Headers(o);
  const local = { [CLIENT_IP_HEADER]: '127.0.0.1', host: 'localhost:3000' };

  test('off unless STOREFRONT_DEV_MAILBOX says loopback or any', () => {
    expect(devMailboxSetting(undefined)).toBe('off');
    expect(devMailboxSetting('true')).toBe('off');
    expect(devMailboxOpen(h(local), devMailboxSetting(undefined), true)).toBe(false);
  });

  test('never in live mode, whatever the setting', () => {
    for (const s of ['loopback', 'any'] as const) expect(devMailboxOpen(h(local), s, false)).toBe(false);
  });

  test('loopback: a loopback client asking for a loopback host, not through an untrusted proxy', () => {
    expect(devMailboxOpen(h(local), 'loopback', true)).toBe(true);
    expect(devMailboxOpen(h({ [CLIENT_IP_HEADER]: '::1', host: '[::1]:3000' }), 'loopback', true)).toBe(true);
    expect(devMailboxOpen(h({ ...local, [CLIENT_IP_HEADER]: '192.0.2.2' }), 'loopback', true)).toBe(false);
    expect(devMailboxOpen(h({ ...local, host: 'rebind.evil.example:3000' }), 'loopback', true)).toBe(false);
    expect(devMailboxOpen(h({ ...local, [FORWARDED_BY_UNTRUSTED_HEADER]: '1' }), 'loopback', true)).toBe(false);
    expect(devMailboxOpen(h({ host: 'localhost:3000' }), 'loopback', true)).toBe(false);
  });

  test('any: whoever reaches the storefront (test mode only)', () => {
    expect(devMailboxOpen(h({ [CLIENT_IP_HEADER]: '192.0.2.2', host: 'shop.example' }), 'any', true)).toBe(true);
  });
});
