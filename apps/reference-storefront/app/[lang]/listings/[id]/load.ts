import 'server-only';
import { safe } from '@trpc/client';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { api, apiAs, getMarketplace, problemOf, type ApiOutputs } from '../../../../lib/api';
import { shownCurrency } from '../../../../lib/currency';
import { sessionToken } from '../../../../lib/session';

type Category = ApiOutputs['categories']['list']['items'][number];

export interface TermShown {
  kind: string;
  kindName: string;
  name: string;
  description?: string;
}

/**
 * Everything the product page shows, once per request (the page and its <title> both ask): the
 * listing (with `favorited` when signed in), its category path and its terms named in the page's
 * language — the listing itself names them in the language the seller wrote in.
 */
export const loadProduct = cache(async (lang: string, id: string, askedCurrency?: string) => {
  const marketplace = await getMarketplace();
  const currency = await shownCurrency(marketplace.currencies, askedCurrency);
  const input = { id, ...(currency ? { currency } : {}) };
  const token = await sessionToken();
  let [listing, error] = await safe((token ? apiAs(token) : api()).listings.get.query(input));
  // an ended session: show the listing without the personal part
  if (error && problemOf(error)?.status === 401) [listing, error] = await safe(api().listings.get.query(input));
  if (error) {
    const status = problemOf(error)?.status;
    if (status === 404 || status === 422) notFound();
    throw error;
  }
  const l = listing!;
  const [categories, terms] = await Promise.all([
    l.category_id ? safe(api().categories.list.query({ locale: lang })).then(([c]) => c?.items ?? []) : Promise.resolve([] as Category[]),
    Promise.all(
      Object.entries(l.terms).map(async ([kind, ref]): Promise<TermShown> => {
        const [term] = await safe(api().catalogTerms.get.query({ kind, slug: ref.slug, locale: lang }));
        const kindName = marketplace.term_kinds.find((k) => k.key === kind)?.names;
        return {
          kind,
          kindName: kindName?.[lang] ?? kindName?.[marketplace.locales[0]!] ?? kind,
          name: term?.name ?? ref.name,
          description: term?.description ?? ref.descriptions?.[lang] ?? ref.descriptions?.[marketplace.locales[0]!],
        };
      }),
    ),
  ]);
  return { marketplace, listing: l, currency, categoryPath: categoryPath(categories, l.category_id), terms };
});

/** The category and its parents, root first (the API lists parents with ids). */
function categoryPath(all: Category[], id: string | undefined): Category[] {
  const byId = new Map(all.map((c) => [c.id, c]));
  const path: Category[] = [];
  for (let c = id ? byId.get(id) : undefined; c && path.length < 10; c = c.parent_id ? byId.get(c.parent_id) : undefined) path.unshift(c);
  return path;
}
