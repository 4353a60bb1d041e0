/**
 * The people of the demo shop. Two accounts are for the developer trying it (their passwords are
 * generated on the first start and printed by `npm start`): the demo buyer, and the demo seller,
 * who owns a share of the listings so the seller pages have something to show. The other sellers
 * and shoppers sign in with nothing (no password): they exist so the shop has several sellers and
 * favourites from more than one person.
 */

export type DemoCurrency = 'SEK' | 'EUR';

export interface DemoPerson {
  key: string;
  email: string;
  firstName: string;
  lastName: string;
  displayName: string;
  bio: string;
  locale: 'en' | 'sv';
}

export interface DemoSeller extends DemoPerson {
  /** the currency they price in and where their things are */
  currency: DemoCurrency;
  location: { city: string; postal_code: string; country: string };
  /** near the showroom: some of their listings are handed to the marketplace to store */
  nearShowroom: boolean;
}

export const DEMO_BUYER: DemoPerson = {
  key: 'buyer',
  email: 'buyer@demo.example',
  firstName: 'Alex',
  lastName: 'Berg',
  displayName: 'Alex B.',
  bio: '',
  locale: 'en',
};

/** In this order the listings are dealt out, one each in turn: the currencies alternate from the first listing on. */
export const DEMO_SELLERS: DemoSeller[] = [
  {
    key: 'seller',
    email: 'seller@demo.example',
    firstName: 'Sam',
    lastName: 'Lind',
    displayName: 'Södermalm Second Hand',
    bio: 'Mid-century furniture and lamps, restored in our workshop on Södermalm.',
    locale: 'en',
    currency: 'SEK',
    location: { city: 'Stockholm', postal_code: '118 20', country: 'SE' },
    nearShowroom: true,
  },
  {
    key: 'helsinki',
    email: 'aino@nordic-lights.example',
    firstName: 'Aino',
    lastName: 'Virtanen',
    displayName: 'Nordic Lights Helsinki',
    bio: 'Finnish and Danish lighting from the 1930s to the 1970s, rewired and tested.',
    locale: 'en',
    currency: 'EUR',
    location: { city: 'Helsinki', postal_code: '00120', country: 'FI' },
    nearShowroom: false,
  },
  {
    key: 'uppsala',
    email: 'karin@villa-vintage.example',
    firstName: 'Karin',
    lastName: 'Holm',
    displayName: 'Villa Vintage Uppsala',
    bio: 'Vi tömmer dödsbon och villor i Uppland och säljer det vackraste vidare.',
    locale: 'sv',
    currency: 'SEK',
    location: { city: 'Uppsala', postal_code: '753 10', country: 'SE' },
    nearShowroom: false,
  },
  {
    key: 'berlin',
    email: 'jonas@mitte-modern.example',
    firstName: 'Jonas',
    lastName: 'Weber',
    displayName: 'Mitte Modern',
    bio: 'A small shop in Berlin-Mitte for Scandinavian design. We ship across Europe.',
    locale: 'en',
    currency: 'EUR',
    location: { city: 'Berlin', postal_code: '10115', country: 'DE' },
    nearShowroom: false,
  },
  {
    key: 'stockholm',
    email: 'elsa@hornstull-mobler.example',
    firstName: 'Elsa',
    lastName: 'Nyberg',
    displayName: 'Hornstulls Möbler',
    bio: 'Möbler och belysning från 1900-talet. Hämta i butiken eller i marknadens showroom.',
    locale: 'sv',
    currency: 'SEK',
    location: { city: 'Stockholm', postal_code: '117 39', country: 'SE' },
    nearShowroom: true,
  },
  {
    key: 'copenhagen',
    email: 'mette@oesterbro-design.example',
    firstName: 'Mette',
    lastName: 'Larsen',
    displayName: 'Østerbro Design',
    bio: 'Danish modern from Copenhagen: chairs, tables and the lamps to light them.',
    locale: 'en',
    currency: 'EUR',
    location: { city: 'Copenhagen', postal_code: '2100', country: 'DK' },
    nearShowroom: false,
  },
  {
    key: 'malmo',
    email: 'nils@malmo-mobelmakeri.example',
    firstName: 'Nils',
    lastName: 'Ek',
    displayName: 'Malmö Möbelmakeri',
    bio: 'Snickare i Malmö. Jag renoverar stolar och bord och säljer dem med garanti.',
    locale: 'sv',
    currency: 'SEK',
    location: { city: 'Malmö', postal_code: '211 22', country: 'SE' },
    nearShowroom: false,
  },
];

/** Shoppers besides the demo buyer: their favourites make the counts differ from listing to listing. */
export const DEMO_SHOPPERS: DemoPerson[] = [
  { key: 'shopper-1', email: 'maja@shopper.example', firstName: 'Maja', lastName: 'Sund', displayName: 'Maja', bio: '', locale: 'sv' },
  { key: 'shopper-2', email: 'lukas@shopper.example', firstName: 'Lukas', lastName: 'Brandt', displayName: 'Lukas', bio: '', locale: 'en' },
  { key: 'shopper-3', email: 'ida@shopper.example', firstName: 'Ida', lastName: 'Ström', displayName: 'Ida', bio: '', locale: 'sv' },
];
