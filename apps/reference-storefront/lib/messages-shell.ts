/**
 * Texts of the shop's frame and browsing pages: header, footer, skip link, 404 and error pages,
 * home, search filters and category pages. Kept apart from lib/messages.ts (which spreads them in)
 * so that each area's texts sit together in both languages.
 */
const en = {
  chrome: {
    skip: 'Skip to main content',
    shop: 'Shop',
    home: 'Home',
    accountNav: 'Account',
    languageNav: 'Language',
    footerNav: 'About this shop',
    searchSubmit: 'Search',
    sell: 'Sell',
    footerNote: 'A reference storefront built on the marketplace API.',
    unavailable: 'The shop is resting',
  },
  notFound: {
    title: 'Page not found',
    text: 'We could not find that page. The link may be old, or the item may have been sold.',
    home: 'Go to the shop',
    search: 'Search the shop',
  },
  error: {
    title: 'Something went wrong',
    text: 'The page could not be shown. Please try again in a moment.',
    reference: 'Reference',
    retry: 'Try again',
    home: 'Go to the shop',
  },
  home: {
    tagline: 'Pre-loved design and everyday finds, checked and ready for a new home.',
    browse: 'Browse everything',
    sell: 'Start selling',
    categories: 'Shop by category',
    visit: 'Visit us',
    noCategories: 'No categories yet.',
    noLocations: 'No locations yet.',
    siteKinds: { showroom: 'Showroom', warehouse: 'Warehouse' },
  },
  browse: {
    searchTitle: (q: string) => `Results for “${q}”`,
    results: { one: '{n} listing', other: '{n} listings' },
    /** when the API says `total_is_estimate` (over 10 000 matches) */
    resultsAbout: { one: 'about {n} listing', other: 'about {n} listings' },
    filters: 'Filters',
    clear: 'Clear filters',
    breadcrumb: 'Breadcrumb',
    subcategories: 'Narrow down',
    didYouMean: 'Did you mean',
    priceRanges: 'Price',
    under: (to: string) => `under ${to}`,
    andOver: (from: string) => `${from} and over`,
  },
};

export type ShellMessages = typeof en;

const sv: ShellMessages = {
  chrome: {
    skip: 'Hoppa till huvudinnehållet',
    shop: 'Butik',
    home: 'Start',
    accountNav: 'Konto',
    languageNav: 'Språk',
    footerNav: 'Om butiken',
    searchSubmit: 'Sök',
    sell: 'Sälj',
    footerNote: 'En referensbutik byggd på marknadsplatsens API.',
    unavailable: 'Butiken vilar',
  },
  notFound: {
    title: 'Sidan hittades inte',
    text: 'Vi hittade inte den sidan. Länken kan vara gammal, eller så har saken redan sålts.',
    home: 'Till butiken',
    search: 'Sök i butiken',
  },
  error: {
    title: 'Något gick fel',
    text: 'Sidan kunde inte visas. Försök igen om en liten stund.',
    reference: 'Referens',
    retry: 'Försök igen',
    home: 'Till butiken',
  },
  home: {
    tagline: 'Begagnad design och vardagsfynd, kontrollerade och redo för ett nytt hem.',
    browse: 'Se allt till salu',
    sell: 'Börja sälja',
    categories: 'Handla efter kategori',
    visit: 'Besök oss',
    noCategories: 'Inga kategorier än.',
    noLocations: 'Inga platser än.',
    siteKinds: { showroom: 'Showroom', warehouse: 'Lager' },
  },
  browse: {
    searchTitle: (q: string) => `Resultat för ”${q}”`,
    results: { one: '{n} annons', other: '{n} annonser' },
    resultsAbout: { one: 'cirka {n} annons', other: 'cirka {n} annonser' },
    filters: 'Filter',
    clear: 'Rensa filter',
    breadcrumb: 'Brödsmulor',
    subcategories: 'Smalna av',
    didYouMean: 'Menade du',
    priceRanges: 'Pris',
    under: (to: string) => `under ${to}`,
    andOver: (from: string) => `${from} och mer`,
  },
};

export const shellMessages: Record<'en' | 'sv', ShellMessages> = { en, sv };
