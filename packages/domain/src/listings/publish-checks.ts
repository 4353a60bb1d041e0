import { Ajv, type ErrorObject } from 'ajv';
import type { Listing, Marketplace } from '@hm/db/entities';
import type { FieldError } from '../core/errors.js';
import { MAX_AMOUNT } from '../core/money.js';

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>();

function attributeErrors(schema: unknown, attributes: Record<string, unknown>): FieldError[] {
  if (!schema || typeof schema !== 'object') return [];
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(attributes)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => {
    const missing = e.keyword === 'required' ? `/${(e.params as { missingProperty: string }).missingProperty}` : '';
    const pointer = `${e.instancePath}${missing}`;
    const field = pointer.split('/').filter(Boolean).join('.');
    return { location: `attributes${field ? `.${field}` : ''}`, message: `${(e.message ?? 'Not valid').replace(/^must/, 'Must')}.`, value: null };
  });
}

/** Where publish sends a listing (the listing table's publish rows). */
export type PublishTarget = 'published' | 'pending_approval' | 'pending_valuation';

/**
 * Everything a listing still needs to go to `to`, all at once (spec: Seller listings → publish
 * rules). Straight on sale, everything is checked; to the team (approval or a valuation) only the
 * basics — title, photos, country, price (none for a valuation) — since the team reviews the rest.
 */
export function missingForPublish(l: Listing, readyPhotos: number, m: Marketplace, to: PublishTarget): FieldError[] {
  const rules = m.listingRules;
  const basicsOnly = to !== 'published';
  const opts = { askValuation: to === 'pending_valuation' };
  const errors: FieldError[] = [];
  const need = (location: string, message: string, value: unknown = null) => errors.push({ location, message, value });

  if (!l.title.trim()) need('title', 'A title is needed to publish.');
  const minPhotos = opts.askValuation ? Math.max(1, rules.min_images) : rules.min_images;
  if (readyPhotos < minPhotos) need('images', `At least ${minPhotos} processed photo${minPhotos === 1 ? '' : 's'} needed to publish; it has ${readyPhotos}.`, readyPhotos);
  if (!l.location.country) need('location.country', 'A country is needed to publish.');
  if (!opts.askValuation && (l.priceAmount === null || l.priceAmount === undefined)) need('price', 'A price is needed to publish (or ask for a valuation).');
  if (l.priceAmount != null && l.priceAmount + (l.delivery.shipping?.price ?? 0) > MAX_AMOUNT) {
    // one item with its shipping must fit in one payment (core/money.ts); a listing saved before the bound may not
    need(l.priceAmount > MAX_AMOUNT ? 'price.amount' : 'delivery.shipping.price', `One item with its shipping must cost at most ${MAX_AMOUNT} in minor units (one payment's limit).`, l.priceAmount);
  }
  if (basicsOnly) return errors;

  const d = l.delivery;
  if (!d.buyer_arranged && !d.pickup && !d.shipping) need('delivery', 'At least one delivery method (shipping, pickup or buyer_arranged) is needed to publish.');
  if (rules.require_category && !l.categoryId) need('category_id', 'A category is needed to publish.');
  for (const kind of rules.required_terms) {
    const name = m.termKinds.find((k) => k.key === kind)?.names[m.locales[0]!] ?? kind;
    if (!l.terms[kind]) need(`terms.${kind}`, `${name} is needed to publish.`);
  }
  errors.push(...attributeErrors(rules.attributes_schema, l.attributes));
  if (d.shipping) {
    const sizes = (m.shipping.sizes ?? []) as unknown[];
    if (sizes.length > 0) {
      if (!l.shippingSize) need('shipping_size', "Shipping is priced from the marketplace's shipping table: the marketplace team sets the shipping size before it can go on sale.");
    } else if (d.shipping.price === undefined) {
      need('delivery.shipping.price', 'A shipping price is needed to publish with shipping (this marketplace has no shipping table).');
    }
  }
  return errors;
}
