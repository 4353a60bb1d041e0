import type { Stack } from './stack.js';
import { photo } from './shop-fixtures.js';
import type { ShopFixture } from './shop-fixture.js';

/**
 * Content pages on the test stack: the demo's home and about pages, and a campaign page with every
 * block type (a featured listing, picked listings, a banner with a phone image…) in both languages,
 * with a preview link of its draft. Made through the operator console like an operator would.
 */
export async function makeContentPages(stack: Stack, shop: ShopFixture): Promise<{ previewToken: string }> {
  const marketplace = 'browser-shop';
  await stack.demoPages();
  const wide = (await stack.operator.media.upload({ marketplace, file: await photo('#7a9e7e', 2400, 1200), alt: 'A green room with a long table' })).image.id;
  const tall = (await stack.operator.media.upload({ marketplace, file: await photo('#c9a27e', 800, 1200), alt: 'A chair by a window' })).image.id;
  const api = async (path: string) => (await fetch(`${stack.apiUrl}/v1${path}`, { headers: { authorization: `Bearer ${stack.secretKey}` } })).json();
  const categories = (await api('/categories')).items as { id: string; slug: string }[];
  const site = ((await api('/locations')).items as { id: string }[])[0]!.id;
  const words = { en: { heading: 'Autumn campaign', more: 'More chairs' }, sv: { heading: 'Höstkampanj', more: 'Fler stolar' } };
  for (const locale of ['en', 'sv'] as const) {
    const w = words[locale];
    await stack.operator.pages.put({
      marketplace,
      slug: 'campaign',
      locale,
      page: {
        title: w.heading,
        description: 'Every block type.',
        blocks: [
          { id: 'hero', type: 'hero', eyebrow: 'Autumn', heading: w.heading, text: 'Warm wood and soft light.', visual: 'listing', listing_id: shop.listingId, search: true, buttons: [{ label: w.more, href: `/${locale}/c/chairs` }] },
          { id: 'links', type: 'links', links: [{ label: w.more, href: `/${locale}/c/chairs` }, { label: 'Journal', href: 'https://journal.example/' }] },
          { id: 'picked', type: 'listing_grid', heading: 'Picked for you', source: 'picked', listing_ids: [shop.listingId] },
          { id: 'banner', type: 'banner', heading: 'Long tables', text: 'For long dinners.', image_id: wide, phone_image_id: tall, link: { label: w.more, href: `/${locale}/search` } },
          { id: 'tiles', type: 'category_tiles', heading: 'Rooms', tiles: categories.slice(0, 3).map((c) => ({ category_id: c.id, image_id: tall })) },
          { id: 'story', type: 'image_text', heading: 'Restored by hand', text: 'In our workshop.', image_id: tall, image_side: 'left' },
          { id: 'feature', type: 'featured_listing', heading: 'Pick of the week', text: 'A stool for every room.', listing_id: shop.listingId, when_sold: 'show' },
          { id: 'cta', type: 'cta', heading: 'Sell yours', text: 'We collect.', tone: 'light', buttons: [{ label: 'Start selling', href: `/${locale}/account/listings/new` }] },
          { id: 'news', type: 'newsletter', heading: 'Letters', text: 'Once a month.', button_label: 'Subscribe' },
          { id: 'promises', type: 'promises', items: [{ title: 'Checked', text: 'By us.' }, { title: 'Delivered' }] },
          { id: 'showroom', type: 'showroom', heading: 'Visit', location_id: site },
          { id: 'text', type: 'text', body: '## Terms\n\nPrices include VAT. See [the shop](/en/search).' },
          { id: 'faq', type: 'faq', heading: 'Questions', questions: [{ question: 'Delivery?', answer: 'Within a week.' }] },
        ],
      },
    });
    await stack.operator.pages.publish({ marketplace, slug: 'campaign', locale });
  }
  await stack.operator.pages.put({ marketplace, slug: 'campaign', locale: 'en', page: { title: 'Next campaign', description: 'Draft.', blocks: [{ id: 'text', type: 'text', body: 'Coming soon.' }] } });
  const { preview } = await stack.operator.pages.previewLink({ marketplace, slug: 'campaign', locale: 'en' });
  return { previewToken: preview.token };
}
