import Link from 'next/link';
import type { ApiOutputs } from '../../../../lib/api';
import { formatNumber } from '../../../../lib/intl';
import { messages } from '../../../../lib/messages';
import { formatMoney } from '../../../../lib/money';
import { toggleFavoriteAction } from '../../shop-actions';

type Listing = ApiOutputs['listings']['get'];

/**
 * The main action area: price, the currency switch (kept in a cookie by proxy.ts, so every page
 * shows that currency), the buy action (to checkout, with a quantity when there is more than one;
 * signed out: sign in first, then back here) and saving.
 */
export function BuyBox({ listing: l, lang, currency, currencies }: { listing: Listing; lang: string; currency?: string; currencies: string[] }) {
  const all = messages(lang);
  const t = all.product;
  const shop = all.shop;
  const buy = all.orders;
  const converted = l.display_price && l.price && l.display_price.currency !== l.price.currency;
  return (
    <section className="buy-box" aria-labelledby="buy-title">
      <h2 id="buy-title" className="visually-hidden">
        {t.buyTitle}
      </h2>
      {l.price && (
        <p className="price" data-testid="price">
          {converted && <span className="approx">{shop.approx} </span>}
          {formatMoney(l.display_price ?? l.price, lang)}
          {converted && <small className="muted"> ({formatMoney(l.price, lang)})</small>}
        </p>
      )}
      {converted && <p className="muted small">{t.approxNote}</p>}
      {currencies.length > 1 && (
        <form method="get" className="inline-form currency-switch">
          <label htmlFor="currency">{shop.currency}</label>
          <select id="currency" name="currency" defaultValue={currency}>
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          <button type="submit" className="secondary">
            {shop.apply}
          </button>
        </form>
      )}
      {l.stock > 1 && <p>{t.inStock(formatNumber(l.stock, lang))}</p>}
      <div className="buy-area" data-testid="buy-area">
        {l.favorited === undefined ? (
          // signed out (the listing has no `favorited` then): sign in, then back here
          <Link className="button" href={`/${lang}/auth/sign-in?next=${encodeURIComponent(`/${lang}/listings/${l.id}`)}`}>
            {buy.signInToBuy}
          </Link>
        ) : (
          <form method="get" action={`/${lang}/checkout/${l.id}`} className="inline-form">
            {l.stock > 1 && (
              <div className="field">
                <label htmlFor="buy-quantity">{buy.quantity}</label>
                <input id="buy-quantity" name="quantity" type="number" inputMode="numeric" min={1} max={Math.min(l.stock, 100)} defaultValue={1} />
              </div>
            )}
            <button type="submit">{buy.buy}</button>
          </form>
        )}
      </div>
      <form action={toggleFavoriteAction}>
        <input type="hidden" name="lang" value={lang} />
        <input type="hidden" name="id" value={l.id} />
        <input type="hidden" name="back" value={`/${lang}/listings/${l.id}`} />
        <input type="hidden" name="saved" value={String(l.favorited === true)} />
        <button type="submit" className="secondary favorite" aria-pressed={l.favorited === undefined ? undefined : l.favorited}>
          {l.favorited === undefined ? shop.signInToSave : l.favorited ? shop.saved : shop.save}
        </button>
      </form>
    </section>
  );
}
