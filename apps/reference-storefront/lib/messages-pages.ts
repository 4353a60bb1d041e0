/**
 * Texts of content pages (the blocks a marketplace's operators compose) and their preview. The
 * blocks' own words come from the API in the page's language; these are the storefront's labels
 * around them. Spread into lib/messages.ts like the shell's texts.
 */
const en = {
  pages: {
    searchLabel: 'Search the shop',
    searchPlaceholder: 'Chairs, lamps, makers…',
    searchSubmit: 'Search',
    notOnSale: 'Sold — no longer on sale',
    openingHours: 'Opening hours',
    pickup: 'You can pick up purchases here.',
    directions: 'Directions',
    newsletterFallback: 'Sign up for news from the shop.',
    previewTitle: 'Preview',
    previewNote: 'You are looking at a draft. Shoppers do not see it until it is published.',
    previewUnavailable: 'This preview link is not valid any more. Ask for a new one.',
    opensElsewhere: '(opens another site)',
  },
};

type PagesMessages = typeof en;

const sv: PagesMessages = {
  pages: {
    searchLabel: 'Sök i butiken',
    searchPlaceholder: 'Stolar, lampor, formgivare…',
    searchSubmit: 'Sök',
    notOnSale: 'Såld — säljs inte längre',
    openingHours: 'Öppettider',
    pickup: 'Här kan du hämta dina köp.',
    directions: 'Vägbeskrivning',
    newsletterFallback: 'Få nyheter från butiken.',
    previewTitle: 'Förhandsvisning',
    previewNote: 'Du tittar på ett utkast. Kunderna ser det inte förrän det publiceras.',
    previewUnavailable: 'Den här förhandsvisningslänken gäller inte längre. Be om en ny.',
    opensElsewhere: '(öppnar en annan webbplats)',
  },
};

const de: PagesMessages = {
  pages: {
    searchLabel: 'Im Shop suchen',
    searchPlaceholder: 'Stühle, Lampen, Hersteller…',
    searchSubmit: 'Suchen',
    notOnSale: 'Verkauft — nicht mehr im Angebot',
    openingHours: 'Öffnungszeiten',
    pickup: 'Hier kannst du Einkäufe abholen.',
    directions: 'Wegbeschreibung',
    newsletterFallback: 'Neuigkeiten aus dem Shop erhalten.',
    previewTitle: 'Vorschau',
    previewNote: 'Du siehst einen Entwurf. Kundinnen und Kunden sehen ihn erst nach der Veröffentlichung.',
    previewUnavailable: 'Dieser Vorschau-Link gilt nicht mehr. Bitte um einen neuen.',
    opensElsewhere: '(öffnet eine andere Website)',
  },
};

export const pagesMessages = { en, sv, de };
