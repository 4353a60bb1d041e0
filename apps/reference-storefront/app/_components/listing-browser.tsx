import { safe } from '@trpc/client';
import Link from 'next/link';
import { api, apiAs, problemOf, type ApiOutputs } from '../../lib/api';
import { problemText } from '../../lib/problems';
import { SORTS, first, pageLinks, readBrowse, searchInput, termParam, withParams, type QueryParams } from '../../lib/browse';
import { getTermFacets, type Category } from '../../lib/catalog';
import { countOf } from '../../lib/intl';
import { formatMoney, toMajor } from '../../lib/money';
import { messages } from '../../lib/messages';
import { shownCurrency } from '../../lib/currency';
import { sessionToken } from '../../lib/session';
import { ApiProblem } from './api-problem';
import { ListingGrid } from './listing-card';

type Marketplace = ApiOutputs['marketplace']['get'];

/**
 * Listings on sale with the marketplace's filters: words, category (on the search page), one choice
 * per term kind (brand, condition… as the marketplace defines them, offering only terms in use),
 * price in a currency, sort; then the results and the next page. A plain GET form: the URL is the
 * state, so results can be shared and the back button works.
 */
export async function ListingBrowser({
  lang,
  path,
  params,
  marketplace,
  category,
  categories,
}: {
  lang: string;
  /** this page's path (the form submits to it) */
  path: string;
  params: QueryParams;
  marketplace: Marketplace;
  /** the category page's category: results are limited to it */
  category?: Category;
  /** on the search page: the categories to choose from (their slugs go in the URL) */
  categories?: Category[];
}) {
  const t = messages(lang);
  const facets = await getTermFacets(marketplace, lang);
  const b = readBrowse(params, { currencies: marketplace.currencies, facets, lang, remembered: await shownCurrency(marketplace.currencies) });
  const chosenCategory = category ?? categories?.find((c) => c.slug === first(params, 'category'));
  // counts for the filters shown: each kind's terms, the categories (search page), price ranges
  const input = searchInput(b, chosenCategory?.id, 24, [...(categories ? ['category'] : []), ...facets.map((f) => `term:${f.kind}`), 'price']);
  // signed in, the cards say which listings are saved; an ended session just shows them without
  const token = await sessionToken();
  const asked = await safe((token ? apiAs(token) : api()).listings.search.query(input));
  const [page, error] = token && problemOf(asked[1])?.status === 401 ? await safe(api().listings.search.query(input)) : asked;
  const price = (minor: number | undefined) => (minor !== undefined && b.currency ? toMajor(minor, b.currency, lang) : '');
  const number = new Intl.NumberFormat(lang);
  /** a range's end as the page writes money ("SEK 2,000", "2 000 kr") */
  const shown = (minor: number) => (b.currency ? formatMoney({ amount: minor, currency: b.currency }, lang) : '');
  const links = pageLinks(path, params, b, page?.next_cursor);
  const typed = (name: 'min' | 'max') => first(params, name) ?? '';
  // a choice's count as the API counts it (every other filter applied); 0 when it would find nothing
  const termCount = (kind: string, id: string) => page?.facets?.terms?.[kind]?.find((x) => x.id === id)?.count ?? 0;
  const categoryCount = (id: string) => page?.facets?.categories?.find((x) => x.id === id)?.count ?? 0;
  const active = [b.q, categories && chosenCategory, b.min, b.max, ...Object.keys(b.chosen)].filter((x) => x !== undefined && x !== '').length;

  return (
    <div className="browse">
      {/* folded on phones so the results come first; always open on wider screens (frame.css) */}
      <details className="filter-panel">
        <summary>{active > 0 ? `${t.browse.filters} (${active})` : t.browse.filters}</summary>
        <form className="filters" method="get" action={path} aria-label={t.browse.filters}>
          <label className="filter-q">
            <span>{t.shop.search}</span>
            <input name="q" type="search" defaultValue={b.q ?? ''} maxLength={200} />
          </label>
          {categories && (
            <label>
              <span>{t.shop.category}</span>
              <select name="category" defaultValue={chosenCategory?.slug ?? ''}>
                <option value="">{t.shop.any}</option>
                {categories.map((c) => (
                  <option key={c.id} value={c.slug} disabled={page?.facets && categoryCount(c.id) === 0 && c.id !== chosenCategory?.id}>
                    {`${c.parent_id ? `– ${c.name}` : c.name}${page?.facets ? ` (${number.format(categoryCount(c.id))})` : ''}`}
                  </option>
                ))}
              </select>
            </label>
          )}
          {facets.map((f) => (
            <label key={f.kind}>
              <span>{f.label}</span>
              <select name={termParam(f.kind)} defaultValue={b.chosen[f.kind]?.[0] ?? ''}>
                <option value="">{t.shop.any}</option>
                {f.terms.map((term) => {
                  const n = page?.facets ? termCount(f.kind, term.id) : term.listing_count;
                  return (
                    <option key={term.id} value={term.slug} disabled={n === 0 && !b.chosen[f.kind]?.includes(term.slug)}>
                      {n === undefined ? term.name : `${term.name} (${number.format(n)})`}
                    </option>
                  );
                })}
              </select>
            </label>
          ))}
          {(['min', 'max'] as const).map((name) => {
            const bad = b.unreadable.includes(name);
            return (
              <label key={name}>
                <span>{`${name === 'min' ? t.shop.minPrice : t.shop.maxPrice} (${b.currency})`}</span>
                <input name={name} inputMode="decimal" defaultValue={bad ? typed(name) : price(b[name])} aria-invalid={bad || undefined} aria-describedby={bad ? `price-${name}-error` : undefined} />
              </label>
            );
          })}
          {page?.facets?.price && page.facets.price.length > 1 && (
            <nav className="price-ranges" aria-label={t.browse.priceRanges}>
              {page.facets.price.map((r) => (
                <Link key={`${r.from}-${r.to}`} href={withParams(path, params, { min: r.from !== undefined ? price(r.from) : undefined, max: r.to !== undefined ? price(r.to - 1) : undefined })}>
                  {`${r.from === undefined ? t.browse.under(shown(r.to!)) : r.to === undefined ? t.browse.andOver(shown(r.from)) : `${shown(r.from)} – ${shown(r.to)}`} (${number.format(r.count)})`}
                </Link>
              ))}
            </nav>
          )}
          <label>
            <span>{t.shop.currency}</span>
            <select name="currency" defaultValue={b.currency}>
              {marketplace.currencies.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
          <label>
            <span>{t.shop.sort}</span>
            <select name="sort" defaultValue={b.sort ?? ''}>
              <option value="">{b.q ? t.shop.sorts.relevance : t.shop.sorts.newest}</option>
              {SORTS.map((s) => (
                <option key={s} value={s}>
                  {t.shop.sorts[s]}
                </option>
              ))}
            </select>
          </label>
          <div className="filter-actions">
            <button type="submit">{t.shop.apply}</button>
            {(active > 0 || b.sort) && (
              <Link href={path} className="button secondary">
                {t.browse.clear}
              </Link>
            )}
          </div>
        </form>
      </details>
      {error ? (
        <ApiProblem detail={problemText(error, lang)} />
      ) : (
        <section aria-labelledby="results-count">
          {b.unreadable.length > 0 && (
            <div className="problem" role="alert" data-testid="price-problem">
              {b.unreadable.map((name) => (
                <p key={name} id={`price-${name}-error`}>
                  {t.shop.notAPrice(name === 'min' ? t.shop.minPrice : t.shop.maxPrice).replace('{typed}', typed(name).slice(0, 40))}
                </p>
              ))}
            </div>
          )}
          <p className="muted results-count" id="results-count" data-testid="total">
            {countOf(lang, page.total, page.total_is_estimate ? t.browse.resultsAbout : t.browse.results)}
          </p>
          {page.did_you_mean && (
            <p data-testid="did-you-mean">
              {`${t.browse.didYouMean} `}
              <Link href={withParams(path, params, { q: page.did_you_mean })}>{page.did_you_mean}</Link>?
            </p>
          )}
          {page.items.length === 0 ? <p>{t.shop.none}</p> : <ListingGrid items={page.items} lang={lang} highlight={b.q} />}
          {(links.next || links.previous) && (
            <p className="page-links">
              {links.previous && (
                <Link href={links.previous} className="button secondary" rel="prev">
                  ← {t.shop.previous}
                </Link>
              )}{' '}
              {links.next && (
                <Link href={links.next} className="button secondary" rel="next">
                  {t.shop.more} →
                </Link>
              )}
            </p>
          )}
        </section>
      )}
    </div>
  );
}
