import type { CategoryImport, TermImport } from '../../catalog/index.js';

/** The demo marketplace's categories, two levels deep (listings go in every one of them). */
export const DEMO_CATEGORIES: CategoryImport = [
  { slug: 'furniture', names: { en: 'Furniture', sv: 'Möbler' }, position: 1 },
  { slug: 'chairs', names: { en: 'Chairs', sv: 'Stolar' }, parent: 'furniture', position: 1 },
  { slug: 'tables', names: { en: 'Tables', sv: 'Bord' }, parent: 'furniture', position: 2 },
  { slug: 'lighting', names: { en: 'Lighting', sv: 'Belysning' }, position: 2 },
  { slug: 'ceiling-lamps', names: { en: 'Ceiling lamps', sv: 'Taklampor' }, parent: 'lighting', position: 1 },
  { slug: 'table-lamps', names: { en: 'Table lamps', sv: 'Bordslampor' }, parent: 'lighting', position: 2 },
];

/**
 * The demo marketplace's catalogue terms: the makers its listings name as brand, and the conditions
 * (required to publish). Descriptions are what a product page shows beside a term.
 */
const brand = (slug: string, name: string, en: string, sv: string) => ({ kind: 'brand', slug, names: { en: name, sv: name }, descriptions: { en, sv } });

export const DEMO_TERMS: TermImport = [
  brand('artek', 'Artek', 'Finnish furniture since 1935.', 'Finska möbler sedan 1935.'),
  brand('fritz-hansen', 'Fritz Hansen', 'Danish furniture maker since 1872.', 'Dansk möbeltillverkare sedan 1872.'),
  brand('gubi', 'Gubi', 'Copenhagen design house reissuing mid-century classics.', 'Designhus i Köpenhamn som återlanserar klassiker från mitten av 1900-talet.'),
  brand('louis-poulsen', 'Louis Poulsen', 'Danish lighting, shaped around glare-free light.', 'Dansk belysning, formad kring bländfritt ljus.'),
  brand('svenskt-tenn', 'Svenskt Tenn', 'Stockholm interiors house, home of Josef Frank’s designs.', 'Stockholmskt inredningshus, hem för Josef Franks formgivning.'),
  brand('ekstrom-mobler', 'Ekström Möbler', 'Solid-wood furniture from a small Småland workshop.', 'Möbler i massivt trä från en liten verkstad i Småland.'),
  brand('swedese', 'Swedese', 'Swedish furniture from Vaggeryd since 1945.', 'Svenska möbler från Vaggeryd sedan 1945.'),
  brand('dux', 'Dux', 'Swedish maker of beds and classic easy chairs.', 'Svensk tillverkare av sängar och klassiska vilstolar.'),
  brand('le-klint', 'Le Klint', 'Danish hand-pleated lampshades since 1943.', 'Danska handplisserade lampskärmar sedan 1943.'),
  brand('muuto', 'Muuto', 'New Nordic design from Copenhagen.', 'Ny nordisk design från Köpenhamn.'),
  brand('hay', 'Hay', 'Danish furniture and lighting for everyday homes.', 'Danska möbler och belysning för vardagen.'),
  brand('string', 'String', 'The Swedish shelf system from 1949.', 'Det svenska hyllsystemet från 1949.'),
  brand('atelje-lyktan', 'Ateljé Lyktan', 'Lamp makers in Åhus since 1934.', 'Lamptillverkare i Åhus sedan 1934.'),
  { kind: 'brand', slug: 'anonymous', names: { en: 'Unknown maker', sv: 'Okänd tillverkare' }, descriptions: { en: 'No maker’s mark: described by the seller.', sv: 'Ingen tillverkarmärkning: beskriven av säljaren.' } },
  { kind: 'condition', slug: 'as-new', names: { en: 'As new', sv: 'Som ny' }, descriptions: { en: 'Hardly used; no marks or wear.', sv: 'Knappt använd; inga märken eller slitage.' } },
  { kind: 'condition', slug: 'good', names: { en: 'Good', sv: 'Bra' }, descriptions: { en: 'Light signs of use; nothing needs fixing.', sv: 'Lätta bruksspår; inget behöver åtgärdas.' } },
  { kind: 'condition', slug: 'worn', names: { en: 'Worn', sv: 'Sliten' }, descriptions: { en: 'Visible wear or small repairs, shown in the photos.', sv: 'Synligt slitage eller små lagningar, syns på bilderna.' } },
];
