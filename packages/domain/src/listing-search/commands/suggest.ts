// eslint-disable-next-line no-restricted-imports -- search assembles its statement from the request's filters here; it runs through tenantSql
import type { tenantSql } from '@hm/db/sql';
import type { SearchWord } from '../search-words.js';
import { conditions, withWordsAs, type Filter } from './search-filters.js';

/** Suggestions tried, closest first, before giving up. */
const SUGGESTIONS_TRIED = 6;

/**
 * did_you_mean: each word the vocabulary does not know replaced by a vocabulary word near it (a typo
 * or two, suggestionBudget), the combinations tried closest first (fewest edits in all), each checked
 * to find a listing with the query's other filters (an exists, stopping at the first row).
 */
export async function suggest(sql: ReturnType<typeof tenantSql>, words: SearchWord[], filters: readonly Filter[]): Promise<string | undefined> {
  let combos: { words: string[]; distance: number }[] = [{ words: [], distance: 0 }];
  for (const w of words) {
    const options = w.known || w.near.length === 0 ? [{ word: w.word, distance: 0 }] : w.near.slice(0, SUGGESTIONS_TRIED);
    combos = combos.flatMap((c) => options.map((o) => ({ words: [...c.words, o.word], distance: c.distance + o.distance }))).sort((a, b) => a.distance - b.distance).slice(0, SUGGESTIONS_TRIED);
  }
  for (const c of combos) {
    if (c.distance === 0) continue;
    const q = c.words.join(' ');
    const { where, params } = conditions(sql.marketplace, withWordsAs(filters, `l.search_doc @@ to_tsquery('simple', hm_prefix_query(?::text))`, [q]));
    const [row] = await sql.query<{ found: boolean }>(`select exists (select 1 from listings l where ${where.join(' and ')}) as found`, params);
    if (row!.found) return q;
  }
  return undefined;
}
