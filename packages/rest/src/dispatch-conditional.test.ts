import { describe, expect, test } from 'vitest';
import { canonicalUrl } from './dispatch.js';
import { calls, dispatchSuite } from './dispatch.suite.js';

/** The /v1 dispatcher's conditional reads: strong ETags, 304s, answers kept for what they depend on, and the key they are found by. */
const { app } = dispatchSuite();

describe('conditional reads', () => {
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  test('a 200 to a GET carries a strong ETag (the same for the same body, another for another) and the Cache-Control the app gives', async () => {
    const a = await get('/v1/things/abc');
    expect(a.statusCode).toBe(200);
    expect(a.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(a.headers['cache-control']).toBe('public, max-age=5');
    expect((await get('/v1/things/abc')).headers.etag).toBe(a.headers.etag);
    expect((await get('/v1/things/abd')).headers.etag).not.toBe(a.headers.etag);
    expect((await get('/v1/things/abc', { 'x-private': '1' })).headers['cache-control']).toBe('private, no-store');
  });

  test('If-None-Match naming the tag (alone, in a list, weakened by a CDN, or *) is a 304 without a body but with the tag; another tag is a 200', async () => {
    const tag = (await get('/v1/things/abc')).headers.etag as string;
    for (const header of [tag, `"other", ${tag}`, `W/${tag}`, '*']) {
      const res = await get('/v1/things/abc', { 'if-none-match': header });
      expect(res.statusCode, header).toBe(304);
      expect(res.body, header).toBe('');
      expect(res.headers.etag, header).toBe(tag);
      expect(res.headers['cache-control'], header).toBe('public, max-age=5');
    }
    for (const header of ['"other"', tag.slice(0, -2) + '"', tag.replace(/^"|"$/g, '')]) {
      const res = await get('/v1/things/abc', { 'if-none-match': header });
      expect(res.statusCode, header).toBe(200);
      expect(res.json()).toEqual({ input: { id: 'abc' } });
    }
  });

  test('an answer kept for the object it depends on: later requests with that object and URL are answered (200 or 304) without the procedure; another object or URL calls it', async () => {
    const before = calls.length;
    const first = await get('/v1/things?limit=2', { 'x-version': '7' });
    expect(first.statusCode).toBe(200);
    expect(calls.length).toBe(before + 1);
    const again = await get('/v1/things?limit=2', { 'x-version': '7' });
    expect([again.statusCode, again.body, again.headers.etag, again.headers['content-type']]).toEqual([200, first.body, first.headers.etag, first.headers['content-type']]);
    const tagged = await get('/v1/things?limit=2', { 'x-version': '7', 'if-none-match': first.headers.etag as string });
    expect([tagged.statusCode, tagged.body, tagged.headers['cache-control']]).toEqual([304, '', 'public, max-age=5']);
    expect(calls.length).toBe(before + 1);
    await get('/v1/things?limit=2', { 'x-version': '8', 'if-none-match': first.headers.etag as string });
    await get('/v1/things?limit=3', { 'x-version': '7' });
    await get('/v1/things?limit=2'); // nothing named: nothing kept
    expect(calls.length).toBe(before + 4);
  });

  test('no tag on writes, errors or refused input; a 422 is never a 304', async () => {
    const created = await app.inject({ method: 'POST', url: '/v1/things', headers: { 'content-type': 'application/json', 'if-none-match': '*' }, payload: '{"name":"a","count":1}' });
    expect(created.statusCode).toBe(201);
    expect(created.headers.etag).toBeUndefined();
    expect((await get('/v1/boom', { 'if-none-match': '*' })).headers.etag).toBeUndefined();
    const bad = await get('/v1/things/12345678901', { 'if-none-match': '*' });
    expect(bad.statusCode).toBe(422);
    expect(bad.headers.etag).toBeUndefined();
  });
});

describe('canonicalUrl: the key a kept answer is found by', () => {
  test('query pairs ordered by name, repeated names in their order, spellings kept as sent', () => {
    expect(canonicalUrl('/listings', '/v1/listings')).toBe('/listings');
    expect(canonicalUrl('/listings', '/v1/listings?')).toBe('/listings');
    expect(canonicalUrl('/listings', '/v1/listings?q=sofa')).toBe('/listings?q=sofa');
    expect(canonicalUrl('/listings', '/v1/listings?q=sofa&limit=24')).toBe(canonicalUrl('/listings', '/v1/listings?limit=24&q=sofa'));
    expect(canonicalUrl('/listings', '/v1/listings?term=a&limit=24&term=b')).toBe('/listings?limit=24&term=a&term=b');
    expect(canonicalUrl('/listings', '/v1/listings?term=b&term=a')).not.toBe(canonicalUrl('/listings', '/v1/listings?term=a&term=b'));
    // one name under two spellings: its values keep their order (the procedure sees them in it)
    expect(canonicalUrl('/listings', '/v1/listings?q=a&%71=b')).not.toBe(canonicalUrl('/listings', '/v1/listings?%71=b&q=a'));
    // a name that is not valid percent-encoding sorts by its text
    expect(canonicalUrl('/listings', '/v1/listings?z=1&%zz=2')).toBe('/listings?%zz=2&z=1');
  });
});
