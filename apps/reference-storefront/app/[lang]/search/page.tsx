import { safe } from '@trpc/client';
import Link from 'next/link';
import { ApiProblem } from '../../_components/api-problem';
import { ListingGrid } from '../../_components/listing-card';
import { Shell } from '../../_components/shell';
import { api, apiAs, getMarketplace } from '../../../lib/api';
import { problemText } from '../../../lib/problems';
import { toMinor, toMajor } from '../../../lib/money';
import { messages } from '../../../lib/messages';
import { sessionToken } from '../../../lib/session';
import { shownCurrency } from '../../../lib/currency';

export const dynamic = 'force-dynamic';

type Search = { q?: string; category?: string; sort?: string; min?: string; max?: string; currency?: string; cursor?: string };
type Props = { params: Promise<{ lang: string }>; searchParams: Promise<Search> };
const SORTS = ['relevance', 'newest', 'price_asc', 'price_desc', 'popular'] as const;

/** Search with filters and paging; prices typed and shown in the chosen currency. */
export default async function SearchPage({ params, searchParams }: Props) {
  const { lang } = await params;
  const sp = await searchParams;
  const t = messages(lang).shop;
  const marketplace = await getMarketplace();
  const currency = (await shownCurrency(marketplace.currencies, sp.currency)) ?? marketplace.currencies[0];
  const sort = SORTS.find((s) => s === sp.sort);
  const min = sp.min && currency ? toMinor(sp.min, currency, lang) : undefined;
  const max = sp.max && currency ? toMinor(sp.max, currency, lang) : undefined;
  const token = await sessionToken();
  const client = token ? apiAs(token) : api();
  const [[page, error], categories] = await Promise.all([
    safe(
      client.listings.search.query({
        limit: 24,
        term: [],
        attr: [],
        ...(sp.q ? { q: sp.q.slice(0, 200) } : {}),
        ...(sp.category ? { category: sp.category } : {}),
        ...(sort ? { sort } : {}),
        ...(min !== undefined ? { min_price: min } : {}),
        ...(max !== undefined ? { max_price: max } : {}),
        ...(currency ? { currency } : {}),
        ...(sp.cursor ? { cursor: sp.cursor } : {}),
      }),
    ),
    api().categories.list.query({ locale: lang }),
  ]);
  const keep = (extra: Record<string, string | undefined>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...sp, cursor: undefined, ...extra })) if (v) q.set(k, v);
    return `/${lang}/search?${q.toString()}`;
  };
  return (
    <Shell lang={lang}>
      <h1>{sp.q ? `“${sp.q}”` : t.search}</h1>
      <form className="filters" method="get" aria-label={t.searchLabel}>
        <label>
          {t.search}
          <input name="q" type="search" defaultValue={sp.q ?? ''} maxLength={200} />
        </label>
        <label>
          {t.category}
          <select name="category" defaultValue={sp.category ?? ''}>
            <option value="">{t.any}</option>
            {categories.items.map((c) => (
              <option key={c.id} value={c.id}>
                {c.parent_id ? `— ${c.name}` : c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.sort}
          <select name="sort" defaultValue={sort ?? ''}>
            <option value="">{sp.q ? t.sorts.relevance : t.sorts.newest}</option>
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {t.sorts[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.minPrice}
          <input name="min" inputMode="decimal" size={7} defaultValue={min !== undefined && currency ? toMajor(min, currency, lang) : ''} />
        </label>
        <label>
          {t.maxPrice}
          <input name="max" inputMode="decimal" size={7} defaultValue={max !== undefined && currency ? toMajor(max, currency, lang) : ''} />
        </label>
        <label>
          {t.currency}
          <select name="currency" defaultValue={currency}>
            {marketplace.currencies.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <button type="submit">{t.apply}</button>
      </form>
      {error ? (
        <ApiProblem detail={problemText(error, lang)} />
      ) : (
        <>
          <p className="muted" data-testid="total">
            {t.results(page.total)}
          </p>
          {page.items.length === 0 ? <p>{t.none}</p> : <ListingGrid items={page.items} lang={lang} />}
          {page.next_cursor && (
            <p>
              <Link href={`${keep({})}&cursor=${encodeURIComponent(page.next_cursor)}`}>{t.more} →</Link>
            </p>
          )}
        </>
      )}
    </Shell>
  );
}
