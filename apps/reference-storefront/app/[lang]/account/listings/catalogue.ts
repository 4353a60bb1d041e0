import 'server-only';
import { api, type ApiOutputs } from '../../../../lib/api';
import type { Catalogue } from './listing-form';

/** Categories and every term kind's terms, for the listing form's choices. */
export async function loadCatalogue(m: ApiOutputs['marketplace']['get'], lang: string): Promise<Catalogue> {
  const [categories, ...terms] = await Promise.all([
    api().categories.list.query({ locale: lang }),
    ...m.term_kinds.map((k) => api().catalogTerms.list.query({ kind: k.key, limit: 200, locale: lang })),
  ]);
  return {
    categories: categories.items,
    terms: m.term_kinds.map((k, i) => ({ kind: k.key, label: k.names[lang] ?? k.names[m.locales[0]!] ?? k.key, items: terms[i]!.items })),
  };
}
