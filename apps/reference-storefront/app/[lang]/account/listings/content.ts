import 'server-only';
import type { ApiOutputs } from '../../../../lib/api';
import { text } from '../../../../lib/forms';
import { problemMessages } from '../../../../lib/messages-problems';
import { toMinor } from '../../../../lib/money';

type Marketplace = ApiOutputs['marketplace']['get'];
type Listing = ApiOutputs['me']['listings']['get'];

/**
 * The listing content from the editor's form, for create and replace (PUT replaces everything, so
 * every field is sent). What the form does not edit is carried over from the current listing —
 * the marketplace's own attributes, the price schedule (sent back unchanged, so it does not
 * restart), the language, the extra-item shipping price — so saving never wipes them.
 *
 * Typed amounts and counts that cannot be read are problems of their own, next to their fields:
 * an unreadable price is never silently dropped (and the draft then "saved" without it).
 */
export function contentOf(form: FormData, m: Marketplace, lang: string, current?: Listing) {
  const rules = problemMessages(lang).rules;
  const errors: Record<string, string> = {};
  const currency = text(form, 'currency') || current?.price?.currency || m.currencies[0] || 'EUR';
  const amount = (field: string) => {
    const typed = text(form, field).trim();
    if (typed === '') return undefined;
    const minor = toMinor(typed, currency, lang);
    if (minor === undefined) errors[field] = rules.amount;
    return minor;
  };
  const price = amount('price');
  const shippingPrice = form.get('shipping') && m.shipping.sizes.length === 0 ? amount('shipping_price') : undefined;
  const stockText = text(form, 'stock').trim();
  if (stockText !== '' && !/^\d+$/.test(stockText)) errors.stock = rules.wholeNumber;

  const terms: Record<string, string> = {};
  for (const kind of m.term_kinds) {
    const id = text(form, `term_${kind.key}`);
    if (id) terms[kind.key] = id;
  }
  const location = Object.fromEntries((['country', 'city', 'postal_code'] as const).map((k) => [k, text(form, k).trim()]).filter(([, v]) => v !== ''));
  const extra = current?.delivery.shipping?.additional_item_price;
  const content = {
    title: text(form, 'title').trim(),
    description: text(form, 'description'),
    ...(current ? { locale: current.locale } : {}),
    ...(price !== undefined ? { price: { amount: price, currency } } : {}),
    ...(current?.price_schedule?.length ? { price_schedule: current.price_schedule.map((s) => ({ months: s.months, amount: s.amount })) } : {}),
    ...(text(form, 'category_id') ? { category_id: text(form, 'category_id') } : {}),
    terms,
    ...(current ? { attributes: current.attributes } : {}),
    location,
    delivery: {
      ...(form.get('pickup') ? { pickup: true } : {}),
      ...(form.get('buyer_arranged') ? { buyer_arranged: true } : {}),
      ...(form.get('shipping')
        ? { shipping: { ...(shippingPrice !== undefined ? { price: shippingPrice } : {}), ...(extra !== undefined ? { additional_item_price: extra } : {}) } }
        : {}),
    },
    stock: stockText === '' || errors.stock ? 1 : Number(stockText),
  };
  return { content, errors: Object.keys(errors).length > 0 ? errors : undefined };
}

/** Where the API's problem locations show up in the editor. */
export function listingFieldOf(path: string): string {
  if (path.startsWith('location.')) return path.split('.')[1]!;
  if (path.startsWith('terms.')) return `term_${path.split('.')[1]}`;
  if (path === 'delivery.shipping.price') return 'shipping_price';
  if (path.startsWith('delivery')) return 'delivery';
  if (path === 'price.currency') return 'currency';
  if (path.startsWith('price')) return 'price';
  if (path === 'images' || path.startsWith('image_ids')) return 'photos';
  return path.split('.')[0]!;
}
