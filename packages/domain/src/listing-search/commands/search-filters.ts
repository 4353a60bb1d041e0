import type { FacetFilter } from './search-facets.js';

/**
 * One condition of the statement, by name: the words (`words`, which the relevance tiers, the count,
 * facets and did_you_mean treat apart), the request's other filters, and `priced` (a price sort's own
 * condition, no filter of the caller's). Their parameters travel with them; `facet` names the facet
 * a filter belongs to (`category`, `term:<kind>`, `price`), left out of that facet's own counts.
 */
export interface Filter extends FacetFilter {
  name: 'words' | 'category' | 'term' | 'seller' | 'attr' | 'min_price' | 'max_price' | 'priced' | 'keys';
}

/** Every statement's first conditions: the marketplace and `on_sale` (every shop index is partial on it). */
export const SHOP = [`l.marketplace_id = ?`, `l.on_sale`];

/** The WHERE conditions and parameters of the shop's listings narrowed by `filters`, in their order. */
export function conditions(marketplace: unknown, filters: readonly Filter[]): { where: string[]; params: unknown[] } {
  return { where: [...SHOP, ...filters.map((f) => f.sql)], params: [marketplace, ...filters.flatMap((f) => f.params)] };
}

/** The words' filter swapped for another form of it (`sql` with its own parameters). */
export const withWordsAs = (filters: readonly Filter[], sql: string, params: unknown[]): Filter[] => filters.map((f) => (f.name === 'words' ? { ...f, sql, params } : f));
