import { describe, expect, test } from 'vitest';
import { isAllowedHref, ZBlockInput, ZPageDraft } from './pages.schema.js';

describe('links', () => {
  test('a shop path or an https address, nothing else', () => {
    for (const ok of ['/', '/en/search?q=chair', '/sv/c/stolar#top', 'https://journal.example/', 'https://x.example/a b'.replace(' ', '%20')]) expect(isAllowedHref(ok), ok).toBe(true);
    for (const bad of ['//evil.example', '/\\evil.example', 'http://x.example', 'javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,x', 'mailto:a@b.example', 'en/search', '', ' /en', '/en\n', 'https://', 'https:/x']) expect(isAllowedHref(bad), JSON.stringify(bad)).toBe(false);
  });
});

describe('blocks', () => {
  test('each type takes its own fields only; unknown types are refused', () => {
    expect(ZBlockInput.safeParse({ id: 'a', type: 'text', body: 'x' }).success).toBe(true);
    expect(ZBlockInput.safeParse({ id: 'a', type: 'text', body: 'x', heading: 'h' }).success).toBe(false);
    expect(ZBlockInput.safeParse({ id: 'a', type: 'carousel' }).success).toBe(false);
    expect(ZBlockInput.safeParse({ id: 'a', type: 'newsletter' }).success).toBe(true);
  });

  test('block ids: 1 to 40 letters, digits, - and _', () => {
    const ok = (id: string) => ZBlockInput.safeParse({ id, type: 'newsletter' }).success;
    expect(ok('a'.repeat(40))).toBe(true);
    expect(ok('a'.repeat(41))).toBe(false);
    expect(ok('')).toBe(false);
    expect(ok('Hero_1-b')).toBe(true);
    expect(ok('hero 1')).toBe(false);
    expect(ok('héro')).toBe(false);
  });

  test('a listing grid says where its listings come from, and only that', () => {
    const grid = (extra: object) => ZBlockInput.safeParse({ id: 'g', type: 'listing_grid', ...extra });
    const id = '0194f8a0-0000-7000-8000-000000000000';
    expect(grid({ source: 'picked', listing_ids: [id] }).success).toBe(true);
    expect(grid({ source: 'rule', rule: {} }).success).toBe(true);
    expect(grid({ source: 'picked' }).success).toBe(false);
    expect(grid({ source: 'rule' }).success).toBe(false);
    expect(grid({ source: 'rule', rule: {}, listing_ids: [id] }).success).toBe(false);
    expect(grid({}).success).toBe(false);
    expect(grid({ source: 'rule', rule: {}, limit: 24 }).success).toBe(true);
    expect(grid({ source: 'rule', rule: {}, limit: 25 }).success).toBe(false);
  });

  test('a page has a title of at most 140 characters; the description may be empty', () => {
    expect(ZPageDraft.safeParse({ title: 'x'.repeat(140), description: '', blocks: [] }).success).toBe(true);
    expect(ZPageDraft.safeParse({ title: 'x'.repeat(141), description: '', blocks: [] }).success).toBe(false);
    expect(ZPageDraft.safeParse({ title: ' ', description: '', blocks: [] }).success).toBe(false);
  });
});
