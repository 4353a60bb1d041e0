import { safe } from '@trpc/client';
import { notFound } from 'next/navigation';
import { Shell } from '../../../_components/shell';
import { api, apiAs, getMarketplace, problemOf } from '../../../../lib/api';
import { formatMoney } from '../../../../lib/money';
import { messages } from '../../../../lib/messages';
import { sessionToken } from '../../../../lib/session';
import { toggleFavoriteAction } from '../../shop-actions';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ lang: string; id: string }>; searchParams: Promise<{ currency?: string }> };

/** A listing on sale: photos, price in the chosen currency, terms, the favourite toggle. */
export default async function ListingPage({ params, searchParams }: Props) {
  const { lang, id } = await params;
  const { currency } = await searchParams;
  const t = messages(lang).shop;
  const marketplace = await getMarketplace();
  const shown = currency && marketplace.currencies.includes(currency) ? currency : undefined;
  const token = await sessionToken();
  const [listing, error] = await safe((token ? apiAs(token) : api()).listings.get.query({ id, ...(shown ? { currency: shown } : {}) }));
  if (error) {
    const status = problemOf(error)?.status;
    if (status === 404 || status === 422) notFound();
    if (status !== 401) throw error;
  }
  // an ended session: show the listing without the personal part
  const l = listing ?? (await api().listings.get.query({ id, ...(shown ? { currency: shown } : {}) }));
  const photos = l.images.filter((i) => i.status === 'ready');
  const back = `/${lang}/listings/${id}${shown ? `?currency=${shown}` : ''}`;
  return (
    <Shell lang={lang}>
      <article className="listing-page">
        <div>
          {photos[0]?.urls ? <img className="main-photo" src={photos[0].urls.large} alt={l.title} /> : <div className="main-photo no-photo" />}
          {photos.length > 1 && (
            <ul className="photos">
              {photos.slice(1).map((p) => (
                <li key={p.id}>{p.urls && <img src={p.urls.thumb} alt="" />}</li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <h1>{l.title}</h1>
          {l.price && (
            <p className="price" data-testid="price">
              {formatMoney(l.display_price ?? l.price, lang)}
              {l.display_price && l.display_price.currency !== l.price.currency && <small className="muted"> ({formatMoney(l.price, lang)})</small>}
            </p>
          )}
          <form method="get" className="inline-form">
            <label htmlFor="currency">{t.currency}</label>
            <select id="currency" name="currency" defaultValue={shown ?? l.price?.currency}>
              {marketplace.currencies.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
            <button type="submit">{t.apply}</button>
          </form>
          <form action={toggleFavoriteAction}>
            <input type="hidden" name="lang" value={lang} />
            <input type="hidden" name="id" value={l.id} />
            <input type="hidden" name="back" value={back} />
            <input type="hidden" name="saved" value={String(l.favorited === true)} />
            <button type="submit" aria-pressed={l.favorited === true}>
              {l.favorited === undefined ? t.signInToSave : l.favorited ? t.saved : t.save}
            </button>
          </form>
          <p style={{ whiteSpace: 'pre-wrap' }}>{l.description}</p>
          <dl>
            {Object.entries(l.terms).map(([kind, term]) => (
              <div key={kind}>
                <dt className="muted">{marketplace.term_kinds.find((k) => k.key === kind)?.names[lang] ?? kind}</dt>
                <dd>{term.name}</dd>
              </div>
            ))}
          </dl>
        </div>
      </article>
    </Shell>
  );
}
