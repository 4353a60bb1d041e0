import { sizeText } from '../../../../lib/shipping-texts';
import type { Field } from '../../../_components/field-row';
import type { ApiOutputs } from '../../../../lib/api';
import { countryOptions } from '../../../../lib/countries';
import type { Messages } from '../../../../lib/messages';
import { toMajor } from '../../../../lib/money';

type Listing = ApiOutputs['me']['listings']['get'];
type Marketplace = ApiOutputs['marketplace']['get'];
export interface Catalogue {
  categories: { id: string; name: string; parent_id?: string }[];
  terms: { kind: string; label: string; items: { id: string; name: string }[] }[];
}

export interface EditorSection {
  key: string;
  title: string;
  fields: Field[];
}

/** What the editor shows, all serializable (it crosses to the browser): sections of fields, the delivery choices, publish options. */
export interface EditorModel {
  sections: EditorSection[];
  delivery: { title: string; fields: Field[]; shippingPrice?: Field; tableNote?: string; sizeNote?: string };
  publish: Field[];
}

/** The editor's fields, filled from a listing when editing. Names match what content.ts reads. */
export function editorModel(t: Messages, m: Marketplace, c: Catalogue, lang: string, l?: Listing): EditorModel {
  const f = t.listings.fields;
  const currency = l?.price?.currency ?? m.currencies[0] ?? 'EUR';
  const shipping = l?.delivery.shipping;
  const table = m.shipping.sizes.length > 0;
  const size = m.shipping.sizes.find((s) => s.key === l?.shipping_size);
  const choose = (items: { id: string; name: string }[]) => [{ value: '', label: f.none }, ...items.map((i) => ({ value: i.id, label: i.name }))];
  return {
    sections: [
      {
        key: 'item',
        title: t.listings.sections.item,
        fields: [
          { name: 'title', label: f.title, defaultValue: l?.title ?? '' },
          { name: 'description', label: f.description, type: 'textarea', rows: 6, defaultValue: l?.description ?? '' },
          {
            name: 'category_id',
            label: f.category_id,
            type: 'select',
            defaultValue: l?.category_id ?? '',
            options: choose(c.categories.map((cat) => ({ id: cat.id, name: cat.parent_id ? `— ${cat.name}` : cat.name }))),
          },
          ...c.terms.map((kind): Field => ({ name: `term_${kind.kind}`, label: kind.label, type: 'select', defaultValue: l?.terms[kind.kind]?.id ?? '', options: choose(kind.items) })),
        ],
      },
      {
        key: 'price',
        title: t.listings.sections.price,
        fields: [
          { name: 'price', label: f.price, inputMode: 'decimal', hint: f.priceHint, defaultValue: l?.price ? toMajor(l.price.amount, l.price.currency, lang) : '' },
          { name: 'currency', label: f.currency, type: 'select', defaultValue: currency, options: m.currencies.map((code) => ({ value: code, label: code })) },
          { name: 'stock', label: f.stock, inputMode: 'numeric', defaultValue: String(l?.stock ?? 1) },
        ],
      },
      {
        key: 'place',
        title: t.listings.sections.place,
        fields: [
          {
            name: 'country',
            label: f.country,
            type: 'select',
            autoComplete: 'country',
            defaultValue: l?.location.country ?? '',
            options: [{ value: '', label: f.chooseCountry }, ...countryOptions(lang, m.shipping.zones.flatMap((z) => z.countries))],
          },
          { name: 'city', label: f.city, autoComplete: 'address-level2', defaultValue: l?.location.city ?? '' },
          { name: 'postal_code', label: f.postal_code, autoComplete: 'postal-code', defaultValue: l?.location.postal_code ?? '' },
        ],
      },
    ],
    delivery: {
      title: t.listings.sections.delivery,
      fields: [
        { name: 'pickup', label: f.pickup, type: 'checkbox', defaultValue: l?.delivery.pickup ? 'on' : '' },
        { name: 'buyer_arranged', label: f.buyer_arranged, type: 'checkbox', defaultValue: l?.delivery.buyer_arranged ? 'on' : '' },
        { name: 'shipping', label: f.shipping, type: 'checkbox', defaultValue: shipping ? 'on' : '' },
      ],
      // with a shipping table the price comes from the table and the size from the team: nothing to ask
      ...(table
        ? { tableNote: t.listings.shippingTable, sizeNote: size ? t.listings.shippingSize(sizeText(size, lang)) : t.listings.noShippingSize }
        : {
            shippingPrice: {
              name: 'shipping_price',
              label: f.shipping_price,
              inputMode: 'decimal' as const,
              hint: f.shippingPriceHint,
              defaultValue: shipping?.price !== undefined ? toMajor(shipping.price, currency, lang) : '',
            },
          }),
    },
    publish: [
      ...(m.listings.valuations ? [{ name: 'ask_valuation', label: t.listings.askValuation, type: 'checkbox' as const }] : []),
      { name: 'wants_storage', label: t.listings.wantsStorage, type: 'checkbox' as const, defaultValue: l?.wants_storage ? 'on' : '' },
    ],
  };
}

/** Every field name the editor shows (problems about other fields are listed with the form's message). */
export function editorFieldNames(model: EditorModel): string[] {
  return [
    ...model.sections.flatMap((s) => s.fields.map((f) => f.name)),
    ...model.delivery.fields.map((f) => f.name),
    'delivery',
    'photos',
    ...(model.delivery.shippingPrice ? ['shipping_price'] : []),
    ...(model.delivery.tableNote ? ['shipping_size'] : []),
    ...model.publish.map((f) => f.name),
  ];
}
