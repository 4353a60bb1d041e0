import { describe, expect, test } from 'vitest';
import { m, L, I, foreign, put, problems, locations, pagesSuite, type Block } from './pages.fixture.js';

/** Content pages: `pages put` checks the whole draft and lists every problem at its place. */
pagesSuite();

describe('pages put: the whole draft checked, every problem listed', () => {
  const ok = () => ({ title: 'Checks', description: '', blocks: [] as Block[] });
  const link = (label: string, href = '/en') => ({ label, href });

  test('limits at their edges pass', async () => {
    const page = {
      title: 'T'.repeat(140),
      description: '',
      blocks: [
        { id: 'a'.repeat(40), type: 'links', links: Array.from({ length: 8 }, (_, i) => link('L'.repeat(60), `/p${i}`)) },
        { id: 'A-z_9', type: 'hero', buttons: [link('One'), link('Two', `https://x.example/${'a'.repeat(500 - 22)}`)] },
        { id: 'g1', type: 'listing_grid', source: 'picked', listing_ids: [L.chair], limit: 1 },
        { id: 'g24', type: 'listing_grid', source: 'rule', rule: {}, limit: 24 },
        { id: 'p', type: 'promises', items: Array.from({ length: 6 }, () => ({ title: 'P' })) },
        { id: 'f', type: 'faq', questions: Array.from({ length: 40 }, () => ({ question: 'Q', answer: 'A' })) },
        { id: 't', type: 'category_tiles', tiles: Array.from({ length: 12 }, () => ({ category_id: m.category.chairs })) },
        { id: 'c', type: 'cta', buttons: [link('One'), link('Two')] },
        { id: 'p1', type: 'promises', items: [{ title: 'P' }] },
        { id: 'f1', type: 'faq', questions: [{ question: 'Q', answer: 'A' }] },
        { id: 't1', type: 'category_tiles', tiles: [{ category_id: m.category.chairs }] },
        { id: 'l1', type: 'links', links: [link('x')] },
      ],
    };
    expect(`https://x.example/${'a'.repeat(500 - 22)}`.length).toBeLessThanOrEqual(500);
    await expect(put('edges', 'en', page)).resolves.toMatchObject({ page: { slug: 'edges', blocks: 12, published: false } });
  });

  test('one over (and under) every limit: all problems at once, each at its place', async () => {
    const errors = await problems({
      title: 'T'.repeat(141),
      description: '',
      blocks: [
        { id: 'a'.repeat(41), type: 'links', links: Array.from({ length: 9 }, () => link('x')) },
        { id: 'bad id', type: 'links', links: [] },
        { id: 'h', type: 'hero', buttons: [link('1'), link('2'), link('3')] },
        { id: 'g0', type: 'listing_grid', source: 'picked', listing_ids: [L.chair], limit: 0 },
        { id: 'g25', type: 'listing_grid', source: 'rule', rule: {}, limit: 25 },
        { id: 'p', type: 'promises', items: Array.from({ length: 7 }, () => ({ title: 'P' })) },
        { id: 'p0', type: 'promises', items: [] },
        { id: 'f', type: 'faq', questions: Array.from({ length: 41 }, () => ({ question: 'Q', answer: 'A' })) },
        { id: 'f0', type: 'faq', questions: [] },
        { id: 't', type: 'category_tiles', tiles: Array.from({ length: 13 }, () => ({ category_id: m.category.chairs })) },
        { id: 't0', type: 'category_tiles', tiles: [] },
        { id: 'c', type: 'cta', buttons: [link('L'.repeat(61)), { label: 'x', href: `/${'a'.repeat(500)}` }] },
        { id: '', type: 'text', body: 'x' },
      ],
    });
    const at = errors.map((e) => e.location).sort();
    expect(at).toEqual(
      [
        'page.title',
        'page.blocks.0.id',
        'page.blocks.0.links',
        'page.blocks.1.id',
        'page.blocks.1.links',
        'page.blocks.2.buttons',
        'page.blocks.3.limit',
        'page.blocks.4.limit',
        'page.blocks.5.items',
        'page.blocks.6.items',
        'page.blocks.7.questions',
        'page.blocks.8.questions',
        'page.blocks.9.tiles',
        'page.blocks.10.tiles',
        'page.blocks.11.buttons.0.label',
        'page.blocks.11.buttons.1.href',
        'page.blocks.12.id',
      ].sort(),
    );
  });

  test('links: a shop path or an https address; fields of another type and unknown types are refused; ids unique', async () => {
    expect(
      await locations({
        ...ok(),
        blocks: [
          { id: 'l', type: 'links', links: [link('a', 'http://x.example'), link('b', '//evil.example'), link('c', 'javascript:alert(1)'), link('d', 'shop/path'), link('e', '/ok'), link('f', 'https://ok.example/x'), { label: '', href: '/' }, { label: 'x', href: '/', style: 'loud' }] },
          { id: 'l', type: 'text', body: 'x', heading: 'Not for text' },
          { id: 'x', type: 'carousel' },
          { id: 'n', type: 'newsletter', listing_id: L.chair },
          { id: 'g', type: 'listing_grid', source: 'picked' },
          { id: 'r', type: 'listing_grid', source: 'rule', listing_ids: [L.chair] },
          { id: 'v', type: 'hero', visual: 'listing' },
        ],
      }),
    ).toEqual(
      [
        'page.blocks.0.links.0.href',
        'page.blocks.0.links.1.href',
        'page.blocks.0.links.2.href',
        'page.blocks.0.links.3.href',
        'page.blocks.0.links.6.label',
        'page.blocks.0.links.7.style',
        'page.blocks.1.heading',
        'page.blocks.1.id',
        'page.blocks.2.type',
        'page.blocks.3.listing_id',
        'page.blocks.4.listing_ids',
        'page.blocks.5.listing_ids',
        'page.blocks.5.rule',
        'page.blocks.6.listing_id',
      ].sort(),
    );
  });

  test("references: missing ids and other marketplaces' listings, images, categories and sites", async () => {
    const errors = await problems({
      ...ok(),
      share_image_id: foreign.image,
      blocks: [
        { id: 'g', type: 'listing_grid', source: 'picked', listing_ids: [L.chair, foreign.listing] },
        { id: 'r', type: 'listing_grid', source: 'rule', rule: { category_id: foreign.category } },
        { id: 'b', type: 'banner', heading: 'x', image_id: foreign.image, phone_image_id: crypto.randomUUID() },
        { id: 't', type: 'category_tiles', tiles: [{ category_id: foreign.category, image_id: I.small }] },
        { id: 's', type: 'showroom', location_id: foreign.site },
        { id: 'f', type: 'featured_listing', listing_id: foreign.listing },
      ],
    });
    expect(errors.map((e) => e.location).sort()).toEqual(
      ['page.share_image_id', 'page.blocks.0.listing_ids.1', 'page.blocks.1.rule.category_id', 'page.blocks.2.image_id', 'page.blocks.2.phone_image_id', 'page.blocks.3.tiles.0.category_id', 'page.blocks.4.location_id', 'page.blocks.5.listing_id'].sort(),
    );
    expect(errors.find((e) => e.location === 'page.blocks.0.listing_ids.1')!.message).toBe('No such listing in this marketplace.');
  });

  test('structure and references in one answer; a language the marketplace does not have', async () => {
    const errors = await problems({ title: '', description: '', blocks: [{ id: 's', type: 'showroom', location_id: foreign.site, heading: 'h', tone: 'dark' }] }, 'checks', 'de');
    expect(errors.map((e) => e.location).sort()).toEqual(['locale', 'page.blocks.0.location_id', 'page.blocks.0.tone', 'page.title'].sort());
  });
});

