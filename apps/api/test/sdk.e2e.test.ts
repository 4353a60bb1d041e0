import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeSellingMarketplace, signUp, startHarness, type Harness } from './harness.js';

/**
 * The generated TypeScript client (README, "Use from any language"), as a storefront developer
 * makes it: openapi-typescript turns the live /v1/openapi.json into types, `tsc --noEmit` checks the
 * demo script (sdk-demo/demo.ts) against them, and the script runs the demo flow through
 * openapi-fetch against the live API. The types are generated from the running document each time
 * (into the git-ignored sdk-demo/generated/), so there is no generated copy to keep current.
 */
const require = createRequire(import.meta.url);
const run = promisify(execFile);
const demoDir = path.join(import.meta.dirname, '..', 'sdk-demo');
const schemaFile = path.join(demoDir, 'generated', 'schema.d.ts');

let h: Harness;
let baseUrl: string;
let secret: string;
let onSale: string;
beforeAll(async () => {
  h = await startHarness();
  const m = await makeSellingMarketplace(h, 'sdk', { min_images: 0 });
  secret = m.secret;
  const seller = await signUp(h, secret, { email: 'seller@example.com' });
  const created = await h.request({ method: 'POST', url: '/v1/me/listings', key: secret, session: seller.token, payload: { title: 'Lounge chair', price: { amount: 90000, currency: 'SEK' }, location: { country: 'SE' }, delivery: { pickup: true } } });
  onSale = created.json().id;
  expect((await h.request({ method: 'POST', url: `/v1/me/listings/${onSale}/publish`, key: secret, session: seller.token, payload: {} })).statusCode).toBe(200);
  const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = address;
});
afterAll(async () => {
  rmSync(path.dirname(schemaFile), { recursive: true, force: true });
  await h.close();
});

test('openapi-typescript generates the client types from the live document; the demo type-checks and runs the demo flow through openapi-fetch', async () => {
  await run(process.execPath, [path.join(path.dirname(require.resolve('openapi-typescript/package.json')), 'bin', 'cli.js'), `${baseUrl}/v1/openapi.json`, '-o', schemaFile]);
  const schema = readFileSync(schemaFile, 'utf8');
  expect(schema).toContain('listListings: {');
  expect(schema).toContain('"/me/favorites/{id}": {');
  // no object the client could not fill or read: `Record<string, never>` only for the empty parts openapi-typescript always writes
  // (no webhooks, no $defs); an operation without input (POST /me/verification-email) has no body to fill
  expect(schema.match(/^.*Record<string, never>.*$/gm)!.map((l) => l.trim())).toEqual(['export type webhooks = Record<string, never>;', 'export type $defs = Record<string, never>;']);
  expect(/sendVerificationEmail: \{[\s\S]*?\n\s+requestBody\??: ([^;]*);/.exec(schema)?.[1]).toBe('never');
  expect(schema).not.toMatch(/\| null\b/);

  const tsc = await run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', demoDir]).catch((e: { stdout: string }) => e);
  expect(tsc.stdout, 'tsc --noEmit -p sdk-demo').toBe('');

  const demo = await run(process.execPath, [path.join(demoDir, 'demo.ts')], { env: { ...process.env, HM_API_URL: baseUrl, HM_SECRET_KEY: secret } });
  const seen = JSON.parse(demo.stdout);
  expect(seen).toMatchObject({
    marketplace: 'sdk',
    categories: 4,
    search: { total: 1, first: 'Lounge chair' },
    user: expect.stringMatching(/^sdk-demo-\d+@example\.com$/),
    listing: { status: 'draft', price: { amount: 120000, currency: 'SEK' } },
    favourites: [onSale],
  });
  // what the demo did is there for its user: signed in again, the draft is theirs
  const signIn = await h.request({ method: 'POST', url: '/v1/sessions', key: secret, payload: { email: seen.user, password: 'a demo passphrase' } });
  const draft = await h.request({ method: 'GET', url: `/v1/me/listings/${seen.listing.id}`, key: secret, session: signIn.json().session.token });
  expect(draft.json()).toMatchObject({ title: 'Teak side table', status: 'draft' });
}, 120_000);

test('the demo does not type-check against a document that lacks what it calls (the check has teeth)', async () => {
  const schema = readFileSync(schemaFile, 'utf8');
  try {
    // a client generated from a document without GET /me/favorites
    const broken = schema.replace('"/me/favorites": {', '"/me/favourites-renamed": {');
    expect(broken).not.toBe(schema);
    writeFileSync(schemaFile, broken);
    const tsc = await run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', demoDir]).catch((e: { stdout: string }) => e);
    expect(tsc.stdout).toMatch(/demo\.ts.*error TS\d+/);
  } finally {
    writeFileSync(schemaFile, schema);
  }
}, 60_000);
