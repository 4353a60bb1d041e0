import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkTarget, isPublicAddress, send, type Resolve } from './send.js';

/** Where webhooks may go (issue 27, Safety): live mode refuses anything but https to public addresses, at each delivery. */

const resolving =
  (...addresses: string[]): Resolve =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('live mode refuses what is not public https', () => {
  test.each([
    ['http://hooks.example.com/x', 'https'],
    ['https://127.0.0.1/x', '127.0.0.1'],
    ['https://10.1.2.3/x', '10.1.2.3'],
    ['https://172.31.255.255/x', '172.31.255.255'],
    ['https://192.168.0.1/x', '192.168.0.1'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['https://100.64.0.1/x', '100.64.0.1'],
    ['https://0.0.0.0/x', '0.0.0.0'],
    ['https://[::1]/x', '::1'],
    ['https://[::ffff:127.0.0.1]/x', '::ffff:7f00:1'],
    ['https://[fd00::1]/x', 'fd00::1'],
    ['https://[fe80::1]/x', 'fe80::1'],
    ['ftp://example.com/x', 'http(s)'],
    ['https://user:pw@example.com/x', 'user name'],
  ])('%s', async (url, why) => {
    const target = await checkTarget(url, 'live', resolving('93.184.215.14'));
    expect(target.ok).toBe(false);
    expect(!target.ok && target.reason).toContain(why);
  });

  test('a name resolving to a private address is refused, even when only one of its addresses is', async () => {
    expect(await checkTarget('https://localhost/x', 'live', resolving('127.0.0.1'))).toMatchObject({ ok: false });
    expect(await checkTarget('https://hooks.example.com/x', 'live', resolving('93.184.215.14', '10.0.0.5'))).toMatchObject({ ok: false, reason: expect.stringContaining('10.0.0.5') });
  });

  test('DNS rebinding: checked at each delivery, the same name refused once it points inside', async () => {
    let answer = '93.184.215.14';
    const resolve: Resolve = async () => [{ address: answer, family: 4 }];
    expect(await checkTarget('https://hooks.example.com/x', 'live', resolve)).toMatchObject({ ok: true, address: { address: '93.184.215.14' } });
    answer = '169.254.169.254';
    expect(await checkTarget('https://hooks.example.com/x', 'live', resolve)).toMatchObject({ ok: false });
  });

  test('public addresses at the edges of the blocked ranges are allowed', () => {
    for (const a of ['11.0.0.0', '9.255.255.255', '172.32.0.0', '172.15.255.255', '100.128.0.0', '192.169.0.0', '2606:4700::1111']) expect(isPublicAddress(a), a).toBe(true);
    for (const a of ['10.0.0.0', '10.255.255.255', '172.16.0.0', '100.127.255.255', '127.255.255.255', 'fc00::', '::ffff:a00:1', '::ffff:10.0.0.1', 'not-an-ip']) expect(isPublicAddress(a), a).toBe(false);
    expect(isPublicAddress('::ffff:5db8:d70e')).toBe(true); // 93.184.215.14
  });

  test('test mode allows http and localhost', async () => {
    expect(await checkTarget('http://localhost:3000/hooks', 'test')).toMatchObject({ ok: true });
    expect(await checkTarget('http://127.0.0.1:3000/hooks', 'test')).toMatchObject({ ok: true });
  });
});

describe('sending', () => {
  let port: number;
  const server = createServer((req, res) => {
    if (req.url === '/redirect') {
      res.writeHead(302, { location: '/ok' }).end();
    } else if (req.url === '/big') {
      res.writeHead(200);
      const chunk = 'y'.repeat(16 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    } else res.writeHead(200).end('fine');
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const to = async (path: string) => {
    const target = await checkTarget(`http://127.0.0.1:${port}${path}`, 'test');
    if (!target.ok) throw new Error(target.reason);
    return send(target, {}, '{}');
  };

  test('a redirect is not followed: a failed attempt', async () => {
    expect(await to('/redirect')).toMatchObject({ status: 302, error: 'HTTP 302' });
  });

  test('a large response is cut after 64 KB; the log keeps its first 1 KB', async () => {
    const r = await to('/big');
    expect(r).toMatchObject({ status: 200, error: null });
    expect(r.response).toHaveLength(1024);
  });

  test('nothing listening: an error, never a throw', async () => {
    const target = await checkTarget('http://127.0.0.1:1/x', 'test');
    if (!target.ok) throw new Error(target.reason);
    expect((await send(target, {}, '{}')).error).toMatch(/ECONNREFUSED/);
  });
});
