import { connect, createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createOrm, type MikroORM } from '@hm/db/orm';
import { createTestDatabase, freePort } from '@hm/db/testing';
import { consoleCaller } from '@hm/contract/console';
import { consoleContext } from '@hm/domain/core';
import { localPorts } from '@hm/domain/ports';
import { buildApp } from '../src/app.js';

/**
 * The API (no worker) with its database unreachable: every data route, on both transports and
 * whether the failure comes from the key lookup or the idempotency records, answers 503 with
 * Retry-After — and answers normally again once the database is back, with nothing restarted.
 * The database is "lost" by a TCP proxy in front of it that drops and refuses connections.
 */
let proxy: { stop(): Promise<void>; start(): Promise<void> };
let orm: MikroORM;
let app: FastifyInstance;
let secret: string;

function tcpProxy(listenPort: number, target: { host: string; port: number }) {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  const start = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      }).listen(listenPort, '127.0.0.1', resolve);
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server!.close(() => resolve());
    });
  return { start, stop };
}

beforeAll(async () => {
  const url = new URL(await createTestDatabase(inject('adminDatabaseUrl')));
  const port = await freePort();
  proxy = tcpProxy(port, { host: url.hostname, port: Number(url.port) });
  await proxy.start();
  url.port = String(port);
  orm = await createOrm(url.toString(), { poolMax: 3 });
  const ports = localPorts({ dataDir: mkdtempSync(path.join(tmpdir(), 'hm-data-')), mode: 'test' });
  app = await buildApp({ orm, mode: 'test', apiUrl: 'http://localhost:4000', ports });
  const operator = consoleCaller(consoleContext({ orm, mode: 'test', ports, publicUrl: 'http://localhost:4000' }, 't'));
  ({ secret } = (await operator.marketplace.create({ name: 'Shop', slug: 'shop', currencies: ['SEK'], locales: ['en'], storefront_url: 'https://shop.example' })).keys);
});
afterAll(async () => {
  await app.close();
  await orm.close(true);
});

const requests = () => [
  app.inject({ method: 'GET', url: '/v1/marketplace', headers: { authorization: `Bearer ${secret}` } }),
  app.inject({ method: 'GET', url: '/v1/listings?sort=newest', headers: { authorization: `Bearer ${secret}` } }),
  app.inject({ method: 'POST', url: '/v1/users', headers: { authorization: `Bearer ${secret}`, 'idempotency-key': '0f5c5d4e-8a4b-4f7e-9c1d-2b3a4c5d6e7f' }, payload: { email: 'eve@example.com', password: 'eve password' } }),
  app.inject({ method: 'GET', url: '/trpc/marketplace.get?input=%7B%7D', headers: { authorization: `Bearer ${secret}` } }),
];

test('while the database is unreachable every route answers 503 with Retry-After; afterwards they work again', async () => {
  expect((await Promise.all(requests())).map((r) => r.statusCode)).toEqual([200, 200, 201, 200]);

  await proxy.stop();
  const down = await Promise.all(requests());
  expect(down.map((r) => r.statusCode)).toEqual([503, 503, 503, 503]);
  for (const [i, res] of down.entries()) {
    expect(res.headers['retry-after']).toBe('5');
    const body = res.json();
    const problem = i === 3 ? body.error.data.problem : body; // /trpc: inside its envelope
    expect(problem).toMatchObject({ status: 503, code: 'service_unavailable', title: 'Service unavailable' });
  }
  expect(down[0]!.headers['content-type']).toBe('application/problem+json');
  const notReady = await app.inject({ method: 'GET', url: '/ready' });
  expect(notReady.statusCode).toBe(503);
  expect(notReady.headers['retry-after']).toBe('5');

  await proxy.start();
  const back = await Promise.all(requests());
  // the idempotent sign-up replays its first answer; nothing was stored for the 503
  expect(back.map((r) => r.statusCode)).toEqual([200, 200, 201, 200]);
  expect(back[2]!.headers['idempotent-replayed']).toBe('true');
});
