import type { Finish } from '../drawings/scene.js';

/**
 * Finishes, fabrics, conditions and rooms of the demo shop. A product line lists the variants it
 * comes in; the variant names the listing ("Stool 60, birch") and colours its photos.
 */

export interface Variant {
  names: { en: string; sv: string };
  finish: Finish;
  /** upholstery or lampshade colour, where the variant is about the fabric */
  fabric?: string;
  shade?: string;
}

const wood = (colour: string): Finish => ({ kind: 'wood', colour });
const lacquer = (colour: string): Finish => ({ kind: 'lacquer', colour });
const metal = (colour: string): Finish => ({ kind: 'metal', colour });

export const VARIANTS = {
  birch: { names: { en: 'birch', sv: 'björk' }, finish: wood('#e2c391') },
  oak: { names: { en: 'oak', sv: 'ek' }, finish: wood('#c8a165') },
  walnut: { names: { en: 'walnut', sv: 'valnöt' }, finish: wood('#7a4e2d') },
  teak: { names: { en: 'teak', sv: 'teak' }, finish: wood('#a8693a') },
  ash: { names: { en: 'black ash', sv: 'svart ask' }, finish: lacquer('#2b2a28') },
  black: { names: { en: 'black', sv: 'svart' }, finish: lacquer('#262626') },
  white: { names: { en: 'white', sv: 'vit' }, finish: lacquer('#eeeae2') },
  red: { names: { en: 'red', sv: 'röd' }, finish: lacquer('#b4362c') },
  green: { names: { en: 'bottle green', sv: 'flaskgrön' }, finish: lacquer('#2f5d4a') },
  blue: { names: { en: 'petrol blue', sv: 'petroleumblå' }, finish: lacquer('#2f4858') },
  yellow: { names: { en: 'mustard', sv: 'senapsgul' }, finish: lacquer('#d19b2a') },
  orange: { names: { en: 'orange', sv: 'orange' }, finish: lacquer('#d9672b') },
  brass: { names: { en: 'brass', sv: 'mässing' }, finish: metal('#b5953b') },
  copper: { names: { en: 'copper', sv: 'koppar' }, finish: metal('#b46a3c') },
  chrome: { names: { en: 'chrome', sv: 'krom' }, finish: metal('#b9bcc0') },
  linen: { names: { en: 'linen', sv: 'linne' }, finish: wood('#c8a165'), fabric: '#d8ccb4' },
  velvet: { names: { en: 'green velvet', sv: 'grön sammet' }, finish: wood('#7a4e2d'), fabric: '#3f6b4f' },
  wool: { names: { en: 'grey wool', sv: 'grå ull' }, finish: lacquer('#262626'), fabric: '#8c8d8a' },
  leather: { names: { en: 'cognac leather', sv: 'konjakfärgat läder' }, finish: metal('#b9bcc0'), fabric: '#9a5a2e' },
  rust: { names: { en: 'rust bouclé', sv: 'rostfärgad bouclé' }, finish: metal('#b5953b'), fabric: '#a14d3a' },
  paper: { names: { en: 'white paper', sv: 'vitt papper' }, finish: lacquer('#f3efe6'), shade: '#f6f1e6' },
  opal: { names: { en: 'opal glass', sv: 'opalglas' }, finish: metal('#b5953b'), shade: '#f7f3ea' },
} satisfies Record<string, Variant>;
export type VariantKey = keyof typeof VARIANTS;

/** The marketplace's condition terms (slugs), how often each is given, what the description says and what it does to the price. */
export const CONDITIONS = [
  { slug: 'as-new', share: 0.25, priceFactor: 1, note: { en: 'As new: hardly used, no marks.', sv: 'Som ny: knappt använd, inga märken.' } },
  { slug: 'good', share: 0.55, priceFactor: 0.85, note: { en: 'Good condition: light signs of use, nothing that needs fixing.', sv: 'Bra skick: lätta bruksspår, inget som behöver åtgärdas.' } },
  { slug: 'worn', share: 0.2, priceFactor: 0.65, note: { en: 'Worn: visible wear and a patina that suits it; priced for that.', sv: 'Sliten: synligt slitage och en patina som klär den; priset är satt därefter.' } },
] as const;

/** Wall and floor colours of the rooms the photos are taken in. */
export const WALLS = ['#e9e4dc', '#dfe7e4', '#efe1d6', '#e3e6ee', '#f1ead3', '#e6dcea', '#e8e8e3', '#f0e6e0'];
export const FLOORS = ['#c9b79c', '#b9a286', '#8f8a84', '#d8cfc2', '#a88b6c'];
export const FABRICS = ['#7d8c7a', '#c9b79c', '#a14d3a', '#5b6a7d', '#d8ccb4'];
export const SHADES = ['#f1ead8', '#f4efe6', '#efe6d8', '#e9dcc3'];
