// eslint-disable-next-line no-restricted-imports -- the vocabulary lookup is one statement through the tenant SQL handle
import type { tenantSql } from '@hm/db/sql';

/**
 * A search's words as the index folds them, each with what else it may match (issue 28):
 * - `infix`: vocabulary words containing it, for a word of INFIX_FROM letters or more (`lampa` →
 *   `taklampa`), found through the trigram index of `search_words`;
 * - `typos`: for a word no vocabulary word starts with, vocabulary words (or their beginnings) within
 *   typoBudget edits, a transposition counting one (`chiar` → `chair`, `sofaa` → `sofa`).
 * Both are ranked below the word's own (whole-word and prefix) matches of the same tier.
 */
export interface SearchWord {
  word: string;
  /** a vocabulary word starts with it */
  known: boolean;
  /** more words it matches: each is matched as a prefix */
  more: string[];
  /** vocabulary words a suggestion may use in its place, closest first (for did_you_mean) */
  near: { word: string; distance: number }[];
}

export const INFIX_FROM = 4;
const MAX_INFIX = 64;
const MAX_TYPOS = 32;

/** Edits a word may be away from what it matches: none under 5 letters, 1 for 5–8, 2 from 9 (as Meilisearch). */
export function typoBudget(word: string): number {
  const n = [...word].length;
  return n >= 9 ? 2 : n >= 5 ? 1 : 0;
}

/** Edits a did_you_mean suggestion may be away: at least one, from 3 letters. */
export const suggestionBudget = (word: string) => Math.max(1, typoBudget(word));

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions, each one edit. */
export function editDistance(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  const d: number[][] = Array.from({ length: s.length + 1 }, (_r, i) => Array.from({ length: t.length + 1 }, (_c, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[s.length]![t.length]!;
}

/**
 * One statement: q's words folded like the index (in order), whether the vocabulary knows each as a
 * prefix, the vocabulary words containing it, and — only for an unknown word — the vocabulary words
 * that levenshtein (fuzzystrmatch, twice the budget: a transposition is two of its edits) puts near
 * it or near their beginning; the exact distance is then taken here.
 */
export async function searchWords(sql: ReturnType<typeof tenantSql>, q: string): Promise<SearchWord[]> {
  const rows = await sql.query<{ w: string; known: boolean; infix: string[]; near: string[] }>(
    `with q as (select w, min(n) as n from regexp_split_to_table(hm_fold(?::text), '[^[:alnum:]]+') with ordinality t(w, n) where w <> '' group by w),
     k as (select q.*, exists (select 1 from search_words v where v.marketplace_id = ? and v.word >= q.w collate "C" and v.word < (q.w || chr(1114111)) collate "C") as known from q)
     select k.w, k.known,
       case when char_length(k.w) >= ${INFIX_FROM} then array(
         select v.word from search_words v where v.marketplace_id = ? and v.word like '%' || k.w || '%' and not (v.word >= k.w collate "C" and v.word < (k.w || chr(1114111)) collate "C")
          order by char_length(v.word), v.word limit ${MAX_INFIX}) else '{}' end as infix,
       case when not k.known and char_length(k.w) >= 3 then array(
         select v.word from search_words v
          where v.marketplace_id = ? and char_length(v.word) >= char_length(k.w) - 2
            and (levenshtein_less_equal(k.w, v.word, 4) <= case when char_length(k.w) >= 9 then 4 else 2 end
              or levenshtein_less_equal(k.w, left(v.word, char_length(k.w)), 4) <= case when char_length(k.w) >= 9 then 4 else 2 end)
          order by levenshtein(k.w, v.word), v.word limit 200) else '{}' end as near
     from k order by k.n`,
    [q, sql.marketplace, sql.marketplace, sql.marketplace],
  );
  return rows.map((r) => {
    const budget = typoBudget(r.w);
    const typos = new Set<string>();
    const near: { word: string; distance: number }[] = [];
    for (const c of r.near) {
      const whole = editDistance(r.w, c);
      if (whole <= suggestionBudget(r.w)) near.push({ word: c, distance: whole });
      if (budget === 0) continue;
      if (whole <= budget) typos.add(c);
      else {
        const start = [...c].slice(0, [...r.w].length).join('');
        if (editDistance(r.w, start) <= budget) typos.add(start);
      }
    }
    near.sort((a, b) => a.distance - b.distance || a.word.localeCompare(b.word));
    return { word: r.w, known: r.known, more: uncovered(r.w, [...r.infix, ...[...typos].slice(0, MAX_TYPOS)]), near };
  });
}

/**
 * The words a query word matches besides itself, less those another of them (or the word) already
 * matches: each is matched as a prefix, so `taklampa` takes in `taklampan` and `taklampor` `taklamporna` — the
 * same listings with a shorter tsquery to test against every candidate row. Shortest first, as found.
 */
export function uncovered(word: string, more: readonly string[]): string[] {
  const kept: string[] = [];
  for (const x of [...new Set(more)].sort((a, b) => a.length - b.length)) {
    if (!x.startsWith(word) && !kept.some((k) => x.startsWith(k))) kept.push(x);
  }
  return more.filter((x, i) => kept.includes(x) && more.indexOf(x) === i);
}

const lexeme = (w: string) => `'${w.replace(/['\\]/g, '$&$&')}'`;

/** `to_tsquery` text: every word required, each a prefix; `loose` adds each word's infix and typo matches; `weights` e.g. 'AB'. */
export function tsqueryText(words: SearchWord[], loose: boolean, weights = ''): string {
  return words
    .map((w) => {
      const all = [w.word, ...(loose ? w.more : [])].map((x) => `${lexeme(x)}:*${weights}`);
      return all.length === 1 ? all[0] : `(${all.join(' | ')})`;
    })
    .join(' & ');
}
