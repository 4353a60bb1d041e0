import { CategorySchema, MediaSchema, PageSchema, SiteSchema } from '@hm/db/entities';
import { crossTenantEm, tenantEm, type MikroORM } from '@hm/db/orm';
import type { CommandContext, Ports } from '../core/context.js';
import { findMarketplaceBySlug } from '../marketplace/index.js';
import { publishPage, putPage } from '../pages/index.js';
import { uploadMedia } from '../pages/index.js';
import { ZPageDraft } from '../pages/index.js';
import { pickText } from '../core/locale.js';
import { DEMO_SLUG } from './seed-demo.js';

type Texts = Record<'en' | 'sv', string>;
const T = (en: string, sv: string): Texts => ({ en, sv });

/** The two pictures of the demo's pages, drawn here (an operator uploads photos with `media upload`). */
const PICTURES = {
  hero: { alt: T('A bright living room with a sofa, a lamp and plants', 'Ett ljust vardagsrum med soffa, lampa och växter'), svg: room('#e9dccb', '#b5643c', '#2f4f4f') },
  workshop: { alt: T('Our workshop with a chair being restored', 'Vår verkstad med en stol som renoveras'), svg: room('#d8e2dc', '#6b705c', '#9a3412') },
};

function room(wall: string, sofa: string, accent: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="1350" viewBox="0 0 2400 1350">
    <rect width="2400" height="1350" fill="${wall}"/>
    <rect y="1000" width="2400" height="350" fill="#8b6b4a"/>
    <rect x="300" y="180" width="520" height="420" fill="#f8f4ee" stroke="#5b4636" stroke-width="18"/>
    <rect x="900" y="640" width="900" height="260" rx="60" fill="${sofa}"/>
    <rect x="860" y="560" width="160" height="380" rx="60" fill="${sofa}"/>
    <rect x="1680" y="560" width="160" height="380" rx="60" fill="${sofa}"/>
    <rect x="960" y="900" width="40" height="110" fill="#3b2f27"/><rect x="1700" y="900" width="40" height="110" fill="#3b2f27"/>
    <line x1="2050" y1="1000" x2="2050" y2="420" stroke="#222" stroke-width="16"/>
    <path d="M1930 420 h240 l-60 -160 h-120 z" fill="${accent}"/>
    <circle cx="520" cy="860" r="130" fill="#3f6f4f"/><rect x="470" y="880" width="100" height="130" fill="#7a4b2a"/>
  </svg>`;
}

const HOME = {
  title: T('Second-hand design, checked by us', 'Begagnad design, kontrollerad av oss'),
  description: T('Chairs, tables and lamps with a history — every piece checked, priced fairly and delivered or picked up in Stockholm.', 'Stolar, bord och lampor med historia — varje möbel kontrollerad, rimligt prissatt och levererad eller hämtad i Stockholm.'),
  eyebrow: T('Since 1962', 'Sedan 1962'),
  heroText: T('Find a piece with a past, or sell one you no longer need.', 'Hitta en möbel med historia, eller sälj en du inte längre behöver.'),
  browse: T('Browse everything', 'Se allt'),
  sell: T('Start selling', 'Börja sälja'),
  newest: T('Just in', 'Nytt i butiken'),
  seeAll: T('See everything', 'Se allt'),
  rooms: T('Shop by category', 'Handla efter kategori'),
  story: T('From our workshop', 'Från vår verkstad'),
  storyHeading: T('Every piece is checked before it goes on sale', 'Varje möbel kontrolleras innan den säljs'),
  storyText: T('We look at joints, finish and electrics, and say honestly what we found.', 'Vi tittar på fogar, ytor och el, och berättar ärligt vad vi hittade.'),
  about: T('About us', 'Om oss'),
  promises: <[Texts, Texts][]>[
    [T('Checked', 'Kontrollerat'), T('Every listing is reviewed by our team.', 'Varje annons granskas av vårt team.')],
    [T('Fair prices', 'Rimliga priser'), T('Prices fall step by step until a piece finds a home.', 'Priserna sjunker stegvis tills möbeln hittar ett hem.')],
    [T('Pick up or delivery', 'Hämta eller leverans'), T('Collect at the showroom or have it delivered.', 'Hämta i butiken eller få den levererad.')],
  ],
  lamps: T('Light for dark evenings', 'Ljus för mörka kvällar'),
  sale: T('Autumn: new lamps every week', 'Höst: nya lampor varje vecka'),
  saleText: T('Pendants, table lamps and floor lamps from the 1950s to today.', 'Taklampor, bordslampor och golvlampor från 1950-talet till idag.'),
  saleLink: T('See the lamps', 'Se lamporna'),
  ctaHeading: T('Have something to sell?', 'Har du något att sälja?'),
  ctaText: T('List it in minutes. We can collect and store it for you.', 'Lägg upp den på några minuter. Vi kan hämta och förvara den åt dig.'),
  visit: T('Visit the showroom', 'Besök butiken'),
  visitText: T('See and try everything stored with us.', 'Se och prova allt som förvaras hos oss.'),
  newsHeading: T('New pieces in your inbox', 'Nya möbler i din inkorg'),
  newsText: T('One email a month with the best new listings.', 'Ett mejl i månaden med de bästa nya annonserna.'),
  newsButton: T('Subscribe', 'Prenumerera'),
  faq: T('Questions', 'Frågor'),
  questions: <[Texts, Texts][]>[
    [T('How do I know the condition?', 'Hur vet jag skicket?'), T('Each listing states its condition and shows every mark in the photos.', 'Varje annons anger skicket och visar alla märken på bilderna.')],
    [T('Can I return a piece?', 'Kan jag lämna tillbaka en möbel?'), T('Tell us within 14 days of receiving it if it is not as described.', 'Säg till inom 14 dagar efter att du fått den om den inte är som beskriven.')],
  ],
};

const ABOUT = {
  title: T('About us', 'Om oss'),
  description: T('Who we are and how the marketplace works.', 'Vilka vi är och hur marknadsplatsen fungerar.'),
  body: T(
    '## A marketplace for things that last\n\nWe started in a small shop on Södermalm. Today sellers all over Sweden list their furniture and lamps here, and our team checks every listing.\n\n- **Buyers** pay safely and pick up or have it delivered.\n- **Sellers** get paid when the buyer has received the piece.',
    '## En marknadsplats för saker som håller\n\nVi började i en liten butik på Södermalm. Idag lägger säljare från hela Sverige upp sina möbler och lampor här, och vårt team granskar varje annons.\n\n- **Köpare** betalar tryggt och hämtar eller får leverans.\n- **Säljare** får betalt när köparen har tagit emot möbeln.',
  ),
  contact: T('Questions? Write to us.', 'Frågor? Skriv till oss.'),
};

const t = (texts: Texts, locale: string) => texts[locale as keyof Texts] ?? texts.en;

/**
 * The demo's content: a published `home` page (most block types, filled with the shop's own
 * listings, categories and showroom as they come) and an `about` page, in each of the
 * marketplace's languages, written through the same commands as `pages put`, `pages publish` and
 * `media upload`. Idempotent: a marketplace that has a `home` page in any state is left alone (an
 * operator may have changed it).
 */
export async function seedDemoPages(ctx: CommandContext): Promise<boolean> {
  if ((await ctx.em.count(PageSchema, { slug: 'home' })) > 0) return false;
  const { default: sharp } = await import('sharp');
  const images: Record<keyof typeof PICTURES, string> = { hero: '', workshop: '' };
  const firstLocale = ctx.marketplace.locales[0]!;
  for (const [key, picture] of Object.entries(PICTURES) as [keyof typeof PICTURES, (typeof PICTURES)['hero']][]) {
    const alt = t(picture.alt, firstLocale);
    // the alt text in each of the marketplace's languages (English for a language the demo has no text in)
    const alts = Object.fromEntries(ctx.marketplace.locales.map((l) => [l, t(picture.alt, l)]));
    const existing = await ctx.em.findOne(MediaSchema, { alt });
    images[key] = existing?.id ?? (await uploadMedia(ctx, { bytes: await sharp(Buffer.from(picture.svg)).png().toBuffer(), alt, alts })).id;
  }
  const categories = await ctx.em.find(CategorySchema, {}, { orderBy: { position: 'asc', slug: 'asc' } });
  const top = categories.filter((c) => !c.parentId);
  const lighting = top.find((c) => c.slug === 'lighting') ?? top[1] ?? top[0];
  const showroom = await ctx.em.findOne(SiteSchema, { active: true, kind: 'showroom' }, { orderBy: { createdAt: 'asc' } });

  for (const locale of ctx.marketplace.locales) {
    const x = (texts: Texts) => t(texts, locale);
    const home = {
      title: x(HOME.title),
      description: x(HOME.description),
      share_image_id: images.hero,
      blocks: [
        { id: 'hero', type: 'hero', eyebrow: x(HOME.eyebrow), heading: x(HOME.title), text: x(HOME.heroText), visual: 'image', image_id: images.hero, search: true, buttons: [{ label: x(HOME.browse), href: `/${locale}/search`, style: 'primary' }, { label: x(HOME.sell), href: `/${locale}/account/listings/new`, style: 'secondary' }] },
        { id: 'newest', type: 'listing_grid', heading: x(HOME.newest), source: 'rule', rule: { sort: 'newest' }, limit: 8, link: { label: x(HOME.seeAll), href: `/${locale}/search` } },
        ...(top.length ? [{ id: 'categories', type: 'category_tiles', heading: x(HOME.rooms), tiles: top.slice(0, 12).map((c) => ({ category_id: c.id, label: pickText(c.names, locale, ctx.marketplace) ?? c.slug })) }] : []),
        { id: 'promises', type: 'promises', items: HOME.promises.map(([title, text]) => ({ title: x(title), text: x(text) })) },
        { id: 'workshop', type: 'image_text', eyebrow: x(HOME.story), heading: x(HOME.storyHeading), text: x(HOME.storyText), image_id: images.workshop, image_side: 'right', link: { label: x(HOME.about), href: `/${locale}/pages/about` } },
        ...(lighting
          ? [
              { id: 'lamps', type: 'listing_grid', heading: x(HOME.lamps), source: 'rule', rule: { category_id: lighting.id, sort: 'popular' }, limit: 4, link: { label: x(HOME.saleLink), href: `/${locale}/c/${lighting.slug}` } },
              { id: 'autumn', type: 'banner', heading: x(HOME.sale), text: x(HOME.saleText), image_id: images.hero, link: { label: x(HOME.saleLink), href: `/${locale}/c/${lighting.slug}` } },
            ]
          : []),
        { id: 'sell', type: 'cta', heading: x(HOME.ctaHeading), text: x(HOME.ctaText), tone: 'dark', buttons: [{ label: x(HOME.sell), href: `/${locale}/account/listings/new`, style: 'primary' }] },
        ...(showroom ? [{ id: 'showroom', type: 'showroom', heading: x(HOME.visit), text: x(HOME.visitText), location_id: showroom.id }] : []),
        { id: 'newsletter', type: 'newsletter', heading: x(HOME.newsHeading), text: x(HOME.newsText), button_label: x(HOME.newsButton) },
        { id: 'faq', type: 'faq', heading: x(HOME.faq), questions: HOME.questions.map(([question, answer]) => ({ question: x(question), answer: x(answer) })) },
        { id: 'more', type: 'links', links: [{ label: x(HOME.about), href: `/${locale}/pages/about` }, { label: x(HOME.browse), href: `/${locale}/search` }] },
      ],
    };
    const about = {
      title: x(ABOUT.title),
      description: x(ABOUT.description),
      blocks: [
        { id: 'story', type: 'text', body: x(ABOUT.body) },
        { id: 'workshop', type: 'image_text', heading: x(HOME.storyHeading), text: x(HOME.storyText), image_id: images.workshop, image_side: 'left' },
        ...(showroom ? [{ id: 'showroom', type: 'showroom', heading: x(HOME.visit), location_id: showroom.id }] : []),
        { id: 'newsletter', type: 'newsletter', heading: x(HOME.newsHeading), button_label: x(HOME.newsButton) },
      ],
    };
    for (const [slug, raw] of [['home', home], ['about', about]] as const) {
      const draft = ZPageDraft.parse(raw); // the demo's own content: a mistake here is a bug, not input
      await putPage(ctx, { slug, locale, raw, draft, structural: [] });
      await publishPage(ctx, slug, locale);
    }
  }
  return true;
}

/** The demo marketplace's pages (npm start), for a demo made before pages existed too. */
export async function ensureDemoPages(deps: { orm: MikroORM; ports: Ports }): Promise<boolean> {
  const marketplace = await findMarketplaceBySlug(crossTenantEm(deps.orm), DEMO_SLUG);
  return seedDemoPages({ ...deps.ports, em: tenantEm(deps.orm, marketplace.id), marketplace });
}
