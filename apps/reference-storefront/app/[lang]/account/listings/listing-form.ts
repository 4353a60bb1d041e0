import type { Field } from '../../../_components/action-form';
import type { ApiOutputs } from '../../../../lib/api';
import { toMajor } from '../../../../lib/money';
import type { Messages } from '../../../../lib/messages';

type Listing = ApiOutputs['me']['listings']['get'];
type Marketplace = ApiOutputs['marketplace']['get'];
export interface Catalogue {
  categories: { id: string; name: string; parent_id?: string }[];
  terms: { kind: string; label: string; items: { id: string; name: string }[] }[];
}

/** The create/edit form's fields, filled from a listing when editing. Names match what the action reads. */
export function listingFields(t: Messages, m: Marketplace, c: Catalogue, l?: Listing): Field[] {
  const f = t.listings.fields;
  const currency = l?.price?.currency ?? m.currencies[0] ?? 'EUR';
  const shipping = l?.delivery.shipping;
  return [
    { name: 'title', label: f.title, defaultValue: l?.title ?? '' },
    { name: 'description', label: f.description, type: 'textarea', defaultValue: l?.description ?? '' },
    { name: 'price', label: f.price, defaultValue: l?.price ? toMajor(l.price.amount, l.price.currency) : '' },
    { name: 'currency', label: f.currency, type: 'select', defaultValue: currency, options: m.currencies.map((code) => ({ value: code, label: code })) },
    {
      name: 'category_id',
      label: f.category_id,
      type: 'select',
      defaultValue: l?.category_id ?? '',
      options: [{ value: '', label: f.none }, ...c.categories.map((cat) => ({ value: cat.id, label: cat.parent_id ? `— ${cat.name}` : cat.name }))],
    },
    ...c.terms.map(
      (kind): Field => ({
        name: `term_${kind.kind}`,
        label: kind.label,
        type: 'select',
        defaultValue: l?.terms[kind.kind]?.id ?? '',
        options: [{ value: '', label: f.none }, ...kind.items.map((i) => ({ value: i.id, label: i.name }))],
      }),
    ),
    { name: 'country', label: f.country, defaultValue: l?.location.country ?? '', autoComplete: 'country' },
    { name: 'city', label: f.city, defaultValue: l?.location.city ?? '' },
    { name: 'postal_code', label: f.postal_code, defaultValue: l?.location.postal_code ?? '' },
    { name: 'pickup', label: f.pickup, type: 'checkbox', defaultValue: l?.delivery.pickup ? 'on' : '' },
    { name: 'buyer_arranged', label: f.buyer_arranged, type: 'checkbox', defaultValue: l?.delivery.buyer_arranged ? 'on' : '' },
    { name: 'shipping', label: f.shipping, type: 'checkbox', defaultValue: shipping ? 'on' : '' },
    { name: 'shipping_price', label: f.shipping_price, defaultValue: shipping?.price !== undefined ? toMajor(shipping.price, currency) : '' },
    { name: 'stock', label: f.stock, type: 'number', defaultValue: String(l?.stock ?? 1) },
  ];
}

/** Where the API's problem locations show up on this form. */
export function listingFieldOf(location: string): string {
  const path = location.replace(/^(body|query|path)\./, '');
  if (path.startsWith('location.')) return path.split('.')[1]!;
  if (path.startsWith('terms.')) return `term_${path.split('.')[1]}`;
  if (path === 'delivery.shipping.price') return 'shipping_price';
  if (path === 'delivery') return 'pickup';
  if (path === 'price.currency') return 'currency';
  if (path.startsWith('price')) return 'price';
  if (path === 'images') return 'photo';
  return path.split('.')[0]!;
}
