import { deliveryTime, shippingName, sizeText } from '../../../../lib/shipping-texts';
import type { ApiOutputs } from '../../../../lib/api';
import { displayName } from '../../../../lib/intl';
import type { Messages } from '../../../../lib/messages';
import { formatMoney } from '../../../../lib/money';

type Listing = ApiOutputs['listings']['get'];
type Shipping = ApiOutputs['marketplace']['get']['shipping'];

interface Line {
  label: string;
  price?: string;
  note?: string;
}

/**
 * Shipping prices as the buyer will pay them: from the marketplace's shipping table when it has one
 * (per option and buyer zone, for the size the team set), else the seller's own price; a missing
 * price is quoted on request, as the API says.
 */
function shippingLines(l: Listing, table: Shipping, t: Messages['product'], lang: string): Line[] {
  const own = l.delivery.shipping;
  if (!own) return [];
  if (table.sizes.length === 0) {
    const price = own.price !== undefined && l.price ? formatMoney({ amount: own.price, currency: l.price.currency }, lang) : undefined;
    return [{ label: t.methods.shipping, price: price ?? t.quoted }];
  }
  const size = table.sizes.find((s) => s.key === l.shipping_size);
  const options = table.options?.length ? table.options : [{ key: 'standard', name: t.methods.shipping }];
  const currency = table.currency ?? l.price?.currency;
  return options.flatMap((option) =>
    table.zones.map((zone) => {
      const amount = size ? table.delivery?.[option.key]?.[size.key]?.[zone.key] : undefined;
      return {
        label: `${shippingName(option, lang)} ${t.shippingTo(shippingName(zone, lang))}`,
        price: amount !== undefined && currency ? formatMoney({ amount, currency }, lang) : t.quoted,
        note: deliveryTime(zone, lang),
      };
    }),
  );
}

/** How the item can reach the buyer, each way with its price or what it means. */
export function Delivery({ listing: l, shipping, t, lang }: { listing: Listing; shipping: Shipping; t: Messages['product']; lang: string }) {
  const place = l.location.city || (l.location.country ? displayName(lang, 'region', l.location.country) : undefined);
  const pickupSite = l.custody === 'stored' && l.site?.buyer_pickup ? [l.site.name, l.site.city].filter(Boolean).join(', ') : undefined;
  const methods: { key: string; title: string; lines: Line[]; about?: string }[] = [];
  if (l.delivery.shipping) {
    const size = shipping.sizes.find((s) => s.key === l.shipping_size);
    methods.push({ key: 'shipping', title: t.methods.shipping, lines: shippingLines(l, shipping, t, lang), about: size ? t.sizeNote(sizeText(size, lang)) : undefined });
  }
  if (l.delivery.pickup) methods.push({ key: 'pickup', title: t.methods.pickup, lines: [], about: pickupSite ? t.pickupAt(pickupSite) : place ? t.pickupIn(place) : undefined });
  if (l.delivery.buyer_arranged) methods.push({ key: 'buyer_arranged', title: t.methods.buyer_arranged, lines: [], about: t.buyerArranged });
  if (methods.length === 0) return null;
  return (
    <section className="product-delivery" aria-labelledby="delivery-title">
      <h2 id="delivery-title">{t.delivery}</h2>
      <ul className="delivery-methods">
        {methods.map((m) => (
          <li key={m.key} data-method={m.key}>
            <strong>{m.title}</strong>
            {m.lines.length > 0 && (
              <ul className="delivery-prices">
                {m.lines.map((line) => (
                  <li key={line.label}>
                    <span>{line.label}</span> <span className="delivery-price">{line.price}</span>
                    {line.note && <span className="muted"> · {line.note}</span>}
                  </li>
                ))}
              </ul>
            )}
            {m.about && <p className="muted">{m.about}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
