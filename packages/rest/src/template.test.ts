import { describe, expect, test } from 'vitest';
import { parseTemplate } from './template.js';

describe('parseTemplate', () => {
  test('reads static segments and parameters in order', () => {
    const t = parseTemplate('/me/listings/{id}/images/{image_id}');
    expect(t.params).toEqual(['id', 'image_id']);
    expect(t.segments).toEqual([
      { kind: 'static', text: 'me' },
      { kind: 'static', text: 'listings' },
      { kind: 'param', name: 'id' },
      { kind: 'static', text: 'images' },
      { kind: 'param', name: 'image_id' },
    ]);
    expect(parseTemplate('/marketplace').params).toEqual([]);
  });

  test('refuses templates it could not match: no leading slash, a parameter inside a segment, a name twice', () => {
    expect(() => parseTemplate('listings')).toThrow(/starts with "\/"/);
    expect(() => parseTemplate('/files/{name}.json')).toThrow(/whole segment/);
    expect(() => parseTemplate('/a/{id}/b/{id}')).toThrow(/named twice/);
  });

  test('matches static segments exactly (case and percent-encoding included) and parameters as one non-empty segment', () => {
    const t = parseTemplate('/catalog-terms/{kind}/{slug}');
    expect(t.match('/catalog-terms/brand/artek')).toEqual({ params: { kind: 'brand', slug: 'artek' } });
    expect(t.match('/Catalog-terms/brand/artek')).toBeUndefined();
    expect(t.match('/catalog%2Dterms/brand/artek')).toBeUndefined();
    expect(t.match('/catalog-terms/brand')).toBeUndefined();
    expect(t.match('/catalog-terms//artek')).toBeUndefined();
    expect(t.match('/catalog-terms/brand/artek/more')).toBeUndefined();
    expect(t.match('catalog-terms/brand/artek')).toBeUndefined();
    expect(parseTemplate('/marketplace').match('/marketplace')).toEqual({ params: {} });
  });

  test('one trailing slash is the same path; two are not', () => {
    const t = parseTemplate('/listings/{id}');
    expect(t.match('/listings/abc/')).toEqual({ params: { id: 'abc' } });
    expect(t.match('/listings/abc//')).toBeUndefined();
    expect(parseTemplate('/listings').match('/listings/')).toEqual({ params: {} });
  });

  test('parameters are percent-decoded exactly once; an encoded slash stays inside the parameter', () => {
    const t = parseTemplate('/pages/{slug}');
    expect(t.match('/pages/caf%C3%A9')).toEqual({ params: { slug: 'café' } });
    expect(t.match('/pages/a%2Fb')).toEqual({ params: { slug: 'a/b' } });
    expect(t.match('/pages/100%2525')).toEqual({ params: { slug: '100%25' } }); // once: %25 → %, not again
    expect(t.match('/pages/a%00b')).toEqual({ params: { slug: 'a\u0000b' } });
    expect(t.match('/pages/a+b')).toEqual({ params: { slug: 'a+b' } }); // + is not a space in a path
  });

  test('a parameter that is not percent-encoded UTF-8 is reported by name, not thrown', () => {
    const t = parseTemplate('/me/listings/{id}/images');
    for (const bad of ['%FF', '%E0%A4%A', '%', '%zz', 'ok%C3']) expect(t.match(`/me/listings/${bad}/images`)).toEqual({ malformed: 'id' });
  });

  test('fill puts each value percent-encoded in its place, and names a missing one', () => {
    const t = parseTemplate('/catalog-terms/{kind}/{slug}');
    expect(t.fill({ kind: 'brand', slug: 'a/b é?' })).toBe('/catalog-terms/brand/a%2Fb%20%C3%A9%3F');
    expect(t.match(t.fill({ kind: 'brand', slug: 'a/b é?' }))).toEqual({ params: { kind: 'brand', slug: 'a/b é?' } });
    expect(t.fill({ kind: 'brand', slug: '%FF' }, (raw) => raw)).toBe('/catalog-terms/brand/%FF'); // as given, for tests that send broken URLs
    expect(() => t.fill({ kind: 'brand' })).toThrow('No value for {slug} of /catalog-terms/{kind}/{slug}');
  });
});
