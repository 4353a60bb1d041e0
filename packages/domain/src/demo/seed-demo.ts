import { MarketplaceSchema } from '@hm/db/entities';
import type { MikroORM } from '@hm/db/orm';
import { crossTenantEm, tenantEm } from '@hm/db/orm';
import type { ApiMode } from '../core/context.js';
import { createMarketplace, updateMarketplace } from '../marketplace/index.js';
import { createApiKey } from '../api-keys/index.js';
import { importCategories, importTerms } from '../catalog/index.js';
import { createSite } from '../locations/index.js';
import { setRates } from '../rates/index.js';
import { repriceIn } from '../rates/index.js';
import { DEMO_CATEGORIES, DEMO_TERMS } from './data/catalogue.js';

export const DEMO_SLUG = 'demo';

/**
 * The demo marketplace made on first start: two currencies, two languages, categories two levels
 * deep, brand terms, a showroom and today's exchange rates. Returns its keys (shown once). Test mode
 * only: a live deployment starts empty (its marketplaces are made with the console).
 */
export async function seedDemo(orm: MikroORM, opts: { mode: ApiMode; storefrontUrl: string; today: string }) {
  if (opts.mode !== 'test') throw new Error('The demo marketplace is made in test mode only: its keys are printed and kept in a file.');
  const m = await crossTenantEm(orm).transactional(async (em) =>
    createMarketplace(em, { name: 'Demo Marketplace', slug: DEMO_SLUG, currencies: ['SEK', 'EUR'], locales: ['en', 'sv'], storefront_url: opts.storefrontUrl }),
  );
  const em = tenantEm(orm, m.id);
  const marketplace = await em.findOneOrFail(MarketplaceSchema, { id: m.id });
  await updateMarketplace(em, marketplace, {
    term_kinds: [
      { key: 'brand', names: { en: 'Brand', sv: 'Märke' } },
      { key: 'condition', names: { en: 'Condition', sv: 'Skick' } },
    ],
    listings: { min_images: 1, require_approval: false, require_category: true, required_terms: ['condition'], valuations: true },
    shipping: {
      currency: 'SEK',
      sizes: [
        { key: 'small', name: 'Small parcel', names: { en: 'Small parcel', sv: 'Litet paket' }, about: 'Fits in a shoebox', abouts: { en: 'Fits in a shoebox', sv: 'Ryms i en skokartong' } },
        { key: 'large', name: 'Large item', names: { en: 'Large item', sv: 'Stor vara' }, about: 'Furniture and the like', abouts: { en: 'Furniture and the like', sv: 'Möbler och liknande' } },
      ],
      zones: [
        { key: 'se', name: 'Sweden', names: { en: 'Sweden', sv: 'Sverige' }, countries: ['SE'], delivery_time: '1–3 days', delivery_times: { en: '1–3 days', sv: '1–3 dagar' } },
        { key: 'eu', name: 'Europe', names: { en: 'Europe', sv: 'Europa' }, countries: ['DK', 'FI', 'NO', 'DE'], delivery_time: '3–6 days', delivery_times: { en: '3–6 days', sv: '3–6 dagar' } },
      ],
      options: [{ key: 'standard', name: 'Standard delivery', names: { en: 'Standard delivery', sv: 'Standardleverans' } }],
      delivery: { standard: { small: { se: 7900, eu: 14900 }, large: { se: 59900 } } },
      storage_fees: { small: 2900, large: 19900 },
      free_storage_weeks: 8,
    },
    commission_percent: 20,
  });
  await importCategories(em, marketplace, DEMO_CATEGORIES);
  await importTerms(em, marketplace, DEMO_TERMS);
  await createSite(em, marketplace, {
    kind: 'showroom',
    name: 'Södermalm showroom',
    line1: 'Götgatan 1',
    postal_code: '116 46',
    city: 'Stockholm',
    country: 'SE',
    active: true,
    buyer_pickup: true,
    opening_hours: 'Tue–Sat 11–18',
    opening_hours_by_language: { en: 'Tue–Sat 11–18', sv: 'tis–lör 11–18' },
  });
  await setRates(em, m.id, { date: opts.today, base: 'EUR', rates: { SEK: 11.52 } });
  // Priced now, not when the worker gets to the queued reprice: the demo has no listings yet (cheap),
  // and a listing in euros made before the worker ran would otherwise miss price sorts and filters.
  await em.transactional((tx) => repriceIn(tx, m.id, opts.today));
  const secret = createApiKey(em, m.id, 'secret', opts.mode);
  const publishable = createApiKey(em, m.id, 'publishable', opts.mode);
  await em.flush();
  return { marketplace, keys: { secret: secret.token, publishable: publishable.token } };
}
