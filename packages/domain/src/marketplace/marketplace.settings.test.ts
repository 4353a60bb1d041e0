import { expect, test } from 'vitest';
import { crossCheckSettings } from './marketplace.settings.js';
import { resolveLocale } from '../core/locale.js';
import type { Marketplace } from '@hm/db/entities';

const base = {
  currencies: ['SEK', 'EUR'],
  locales: ['en', 'sv'],
  term_kinds: [{ key: 'brand', names: { en: 'Brand' } }],
  listings: { min_images: 1, require_approval: false, require_category: false, required_terms: ['brand'], valuations: false },
  shipping: { sizes: [{ key: 's', name: 'S' }], zones: [{ key: 'se', name: 'SE', countries: ['SE'] }], options: [{ key: 'std', name: 'Std' }], delivery: { std: { s: { se: 100 } } } },
};

test('consistent settings pass', () => {
  expect(crossCheckSettings(base)).toEqual([]);
});

test('every dangling reference is reported at once', () => {
  const errors = crossCheckSettings({
    ...base,
    currencies: ['SEK', 'SEK'],
    term_kinds: [{ key: 'brand', names: { de: 'Marke' } }],
    listings: { ...base.listings, required_terms: ['color'] },
    shipping: { ...base.shipping, currency: 'USD', delivery: { express: { m: { dk: 1 } } }, storage_fees: { xl: 5 }, booking: { horizon_days: 10, lead_days: 1, weekdays: [1], windows: [{ key: 'am', label: 'AM' }], zones: ['fi'] } },
  });
  expect(errors.map((e) => e.location)).toEqual([
    'currencies',
    'term_kinds.0.names.de',
    'term_kinds.0.names',
    'listings.required_terms.0',
    'shipping.currency',
    'shipping.delivery.express',
    'shipping.delivery.express.m',
    'shipping.delivery.express.m.dk',
    'shipping.storage_fees.xl',
    'shipping.booking.zones.0',
  ]);
});

test('shipping names, abouts and delivery times per language: only the marketplace\'s languages', () => {
  const named = {
    ...base,
    shipping: {
      ...base.shipping,
      sizes: [{ key: 's', name: 'Small parcel', names: { en: 'Small parcel', sv: 'Litet paket' }, abouts: { sv: 'Ryms i en skokartong', de: 'Passt in einen Schuhkarton' } }],
      zones: [{ key: 'se', name: 'Sweden', names: { sv: 'Sverige' }, countries: ['SE'], delivery_time: '1–3 days', delivery_times: { sv: '1–3 dagar', fi: '1–3 päivää' } }],
      options: [{ key: 'std', name: 'Standard', names: { sv: 'Standard', no: 'Standard' } }],
    },
  };
  expect(crossCheckSettings(named).map((e) => e.location)).toEqual(['shipping.sizes.0.abouts.de', 'shipping.zones.0.delivery_times.fi', 'shipping.options.0.names.no']);
  expect(crossCheckSettings({ ...named, locales: ['en', 'sv', 'de', 'fi', 'no'] })).toEqual([]);
});

test('resolveLocale: exact, base language, else the default', () => {
  const m = { locales: ['en', 'sv', 'pt-BR'] } as Marketplace;
  expect(resolveLocale(m, undefined)).toBe('en');
  expect(resolveLocale(m, 'sv')).toBe('sv');
  expect(resolveLocale(m, 'SV-se')).toBe('sv');
  expect(resolveLocale(m, 'pt-br')).toBe('pt-BR');
  expect(resolveLocale(m, 'fr')).toBe('en');
});
