import type { ListingInput } from '../listings/index.js';
import { CONDITIONS, FABRICS, FLOORS, SHADES, VARIANTS, WALLS, type Variant } from './data/materials.js';
import { DEMO_BUYER, DEMO_SELLERS, DEMO_SHOPPERS, type DemoCurrency, type DemoSeller } from './data/people.js';
import { PRODUCT_LINES, type ProductLine } from './data/products.js';
import type { PhotoSubject } from './demo-photos.js';
import { demoRandom, type DemoRandom } from './demo-random.js';

/** The euro prices of the demo follow the SEK ranges at about the demo marketplace's rate. */
const SEK_PER_EUR = 11.5;

export const DEFAULT_DEMO_LISTINGS = 120;
/** Every line in every variant, once. */
export const MAX_DEMO_LISTINGS = PRODUCT_LINES.reduce((n, l) => n + l.variants.length, 0);

/**
 * One demo listing, decided before anything is stored: its content (catalogue references by slug,
 * resolved when seeding), its photos, what the team does with it and who saves it. A listing is
 * found again by its seller and title, which are unique within the demo.
 */
export interface ListingPlan {
  index: number;
  seller: DemoSeller;
  content: Omit<ListingInput, 'category_id' | 'terms'> & { title: string; price: { amount: number; currency: DemoCurrency } };
  category: string;
  terms: { brand: string; condition: string };
  /** set by the team before it goes on sale (listings that ship) */
  shippingSize?: 'small' | 'large';
  /** handed to the marketplace, which collects it and stores it at the showroom */
  stored: boolean;
  photos: { subject: PhotoSubject; count: number };
  /** people (keys) who save it once it is on sale */
  favouritedBy: string[];
}

/** A price in the currency's minor units, rounded the way a person would ask it. */
function askingPrice(sek: number, currency: DemoCurrency): number {
  if (currency === 'SEK') return Math.round(sek / (sek < 1000 ? 50 : 100)) * (sek < 1000 ? 50 : 100) * 100;
  const eur = sek / SEK_PER_EUR;
  return Math.max(5, Math.round(eur / (eur < 100 ? 5 : 10)) * (eur < 100 ? 5 : 10)) * 100;
}

function conditionOf(r: DemoRandom) {
  let x = r.next();
  for (const c of CONDITIONS) if ((x -= c.share) < 0) return c;
  return CONDITIONS[1];
}

function description(line: ProductLine, locale: 'en' | 'sv', condition: (typeof CONDITIONS)[number], stored: boolean): string {
  const [w, d, h] = line.size;
  const by = line.designer ? (locale === 'sv' ? `Formgiven av ${line.designer}${line.year ? ` ${line.year}` : ''}.` : `Designed by ${line.designer}${line.year ? ` in ${line.year}` : ''}.`) : '';
  const size = locale === 'sv' ? `Mått: B ${w} × D ${d} × H ${h} cm.` : `Size: W ${w} × D ${d} × H ${h} cm.`;
  const where = stored ? (locale === 'sv' ? 'Står i marknadens showroom på Södermalm – kom gärna och titta.' : "Stored at the marketplace's showroom on Södermalm: come and see it.") : '';
  return [line.about[locale], by, condition.note[locale], size, where].filter(Boolean).join(' ');
}

function delivery(line: ProductLine, seller: DemoSeller, r: DemoRandom): { delivery: ListingInput['delivery']; ships: boolean } {
  // Large items ship only within Sweden in the demo's shipping table.
  const ships = line.shipping === 'small' ? r.chance(0.85) : seller.location.country === 'SE' && r.chance(0.4);
  const pickup = !ships || r.chance(0.5);
  const buyerArranged = line.shipping === 'large' && r.chance(0.6);
  return { delivery: { ...(ships ? { shipping: {} } : {}), ...(pickup ? { pickup: true } : {}), ...(buyerArranged ? { buyer_arranged: true } : {}) }, ships };
}

function plan(index: number): ListingPlan {
  const line = PRODUCT_LINES[index % PRODUCT_LINES.length]!;
  const variantKey = line.variants[Math.floor(index / PRODUCT_LINES.length) % line.variants.length]!;
  const variant: Variant = VARIANTS[variantKey];
  const seller = DEMO_SELLERS[index % DEMO_SELLERS.length]!;
  const r = demoRandom(`demo-listing:${index}`);
  const locale = seller.locale;
  const condition = conditionOf(r);
  const stored = seller.nearShowroom && r.chance(0.45);
  const sek = (line.price[0] + (line.price[1] - line.price[0]) * r.next()) * condition.priceFactor;
  const price = askingPrice(sek, seller.currency);
  const drops = r.chance(0.25) && price >= 20000;
  const { delivery: ways, ships } = delivery(line, seller, r);
  const others = [DEMO_BUYER, ...DEMO_SHOPPERS, ...DEMO_SELLERS.filter((s) => s.key !== seller.key)];
  const chance = (key: string) => (key === DEMO_BUYER.key ? 0.12 : key.startsWith('shopper') ? 0.18 : 0.06);
  return {
    index,
    seller,
    content: {
      title: `${line.title[locale]}, ${variant.names[locale]}`,
      description: description(line, locale, condition, stored),
      locale,
      price: { amount: price, currency: seller.currency },
      ...(drops ? { price_schedule: [{ months: 1, amount: askingPrice(sek * 0.85, seller.currency) }, { months: 3, amount: askingPrice(sek * 0.7, seller.currency) }] } : {}),
      attributes: {
        ...(line.designer ? { designer: line.designer } : {}),
        ...(line.year ? { year: line.year } : {}),
        material: variant.names[locale],
        width_cm: line.size[0],
        depth_cm: line.size[1],
        height_cm: line.size[2],
      },
      location: { ...seller.location },
      delivery: ways,
      stock: line.category === 'chairs' && r.chance(0.15) ? r.int(2, 4) : 1,
    },
    category: line.category,
    terms: { brand: line.brand, condition: condition.slug },
    ...(ships ? { shippingSize: line.shipping } : {}),
    stored,
    photos: {
      subject: {
        kind: line.drawing,
        seed: `demo-listing:${index}`,
        look: {
          main: variant.finish,
          fabric: variant.fabric ?? r.pick(FABRICS),
          shade: variant.shade ?? r.pick(SHADES),
          walls: r.sample(WALLS, 2) as [string, string],
          floor: r.pick(FLOORS),
        },
      },
      count: r.pick([1, 2, 2, 3, 3, 3, 4, 4]),
    },
    favouritedBy: others.filter((p) => r.chance(chance(p.key))).map((p) => p.key),
  };
}

/** The first `count` demo listings: the same ones, with the same content and photos, on every machine. */
export function demoListingPlans(count: number = DEFAULT_DEMO_LISTINGS): ListingPlan[] {
  if (!Number.isInteger(count) || count < 0 || count > MAX_DEMO_LISTINGS) throw new RangeError(`The demo has 0 to ${MAX_DEMO_LISTINGS} listings; asked for ${count}.`);
  return Array.from({ length: count }, (_, i) => plan(i));
}
