import 'server-only';
import { cache } from 'react';
import { api, type ApiOutputs } from './api';

export type Category = ApiOutputs['categories']['list']['items'][number];
export type Term = ApiOutputs['catalogTerms']['list']['items'][number];
type Marketplace = ApiOutputs['marketplace']['get'];

/** Every category named in `lang`, parents before children; once per request (metadata and page both need it). */
export const getCategories = cache((lang: string) => api().categories.list.query({ locale: lang }));

/** A category and the ones above it (root first), for `/c/<slug>` pages; undefined for an unknown slug. */
export function categoryTrail(categories: Category[], slug: string): Category[] | undefined {
  const byId = new Map(categories.map((c) => [c.id, c]));
  let current = categories.find((c) => c.slug === slug);
  if (!current) return undefined;
  const trail = [current];
  while (current.parent_id && (current = byId.get(current.parent_id))) trail.unshift(current);
  return trail;
}

/** A term kind's name in `lang` (else the marketplace's first language, else its key). */
export function kindName(marketplace: Marketplace, kind: string, lang: string): string {
  const names = marketplace.term_kinds.find((k) => k.key === kind)?.names ?? {};
  return names[lang] ?? names[marketplace.locales[0] ?? ''] ?? kind;
}

export interface TermFacet {
  kind: string;
  label: string;
  /** terms used by listings on sale, with their `listing_count` */
  terms: Term[];
}

/**
 * The search filters the marketplace defines: one per term kind (brand, condition…), offering the
 * terms that listings on sale use. Kinds nothing on sale uses are left out.
 */
export const getTermFacets = cache(async (marketplace: Marketplace, lang: string): Promise<TermFacet[]> => {
  const lists = await Promise.all(marketplace.term_kinds.map((k) => api().catalogTerms.list.query({ kind: k.key, in_use: 'true', locale: lang })));
  return marketplace.term_kinds
    .map((k, i) => ({ kind: k.key, label: kindName(marketplace, k.key, lang), terms: lists[i]!.items }))
    .filter((f) => f.terms.length > 0);
});
