import { toMinor } from './money';

/** Search and category pages' query string: readable words and slugs, turned into the API's search input. */
export type QueryParams = Record<string, string | string[] | undefined>;

export const SORTS = ['relevance', 'newest', 'price_asc', 'price_desc', 'popular'] as const;
export type Sort = (typeof SORTS)[number];

/** Parameters of our own; a term kind with one of these keys gets a prefix in the URL. */
const RESERVED = new Set(['q', 'category', 'sort', 'min', 'max', 'currency', 'cursor', 'back', 'lang']);

/** The URL parameter of a term kind's filter: `?brand=artek&condition=good`. */
export function termParam(kind: string): string {
  return RESERVED.has(kind) ? `term_${kind}` : kind;
}

/** Every value of a parameter (a repeated one arrives as an array), without empty ones. */
export function all(params: QueryParams, name: string): string[] {
  const v = params[name];
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x) => x !== '');
}

export function first(params: QueryParams, name: string): string | undefined {
  return all(params, name)[0];
}

export interface Facet {
  kind: string;
  terms: { id: string; slug: string }[];
}

/** What the shopper asked for, checked against the marketplace: unknown sorts, currencies and terms are dropped. */
export function readBrowse(params: QueryParams, opts: { currencies: string[]; facets: Facet[]; lang?: string; remembered?: string }) {
  const currency = opts.currencies.find((c) => c === first(params, 'currency')) ?? opts.currencies.find((c) => c === opts.remembered) ?? opts.currencies[0];
  const sort = SORTS.find((s) => s === first(params, 'sort'));
  const price = (name: string) => {
    const typed = first(params, name);
    return typed && currency ? toMinor(typed, currency, opts.lang) : undefined;
  };
  const chosen: Record<string, string[]> = {};
  const termIds: string[] = [];
  for (const f of opts.facets) {
    const slugs = all(params, termParam(f.kind));
    const terms = f.terms.filter((t) => slugs.includes(t.slug));
    if (terms.length === 0) continue;
    chosen[f.kind] = terms.map((t) => t.slug);
    termIds.push(...terms.map((t) => t.id));
  }
  // a price that is not a number is said, not silently ignored
  const unreadable = (['min', 'max'] as const).filter((name) => first(params, name) !== undefined && price(name) === undefined);
  return {
    unreadable,
    q: first(params, 'q')?.slice(0, 200),
    sort,
    currency,
    min: price('min'),
    max: price('max'),
    cursor: first(params, 'cursor'),
    /** the cursors of the pages before this one (page 2's is ""), for "Previous" */
    back: (Array.isArray(params.back) ? params.back : params.back === undefined ? [] : [params.back]).slice(-50),
    /** term kind → chosen slugs */
    chosen,
    termIds,
  };
}
export type Browse = ReturnType<typeof readBrowse>;

/**
 * The API's listing search input for a browse (and a category id, when the page is a category's);
 * `facets`: the counts the filters show (`category`, `term:<kind>`, `price`).
 */
export function searchInput(b: Browse, categoryId: string | undefined, limit = 24, facets: string[] = []) {
  return {
    limit,
    ...(facets.length ? { facets: facets.join(',') } : {}),
    term: b.termIds,
    attr: [],
    ...(b.q ? { q: b.q } : {}),
    ...(categoryId ? { category: categoryId } : {}),
    ...(b.sort ? { sort: b.sort } : {}),
    ...(b.min !== undefined ? { min_price: b.min } : {}),
    ...(b.max !== undefined ? { max_price: b.max } : {}),
    ...(b.currency ? { currency: b.currency } : {}),
    ...(b.cursor ? { cursor: b.cursor } : {}),
  };
}

/** The same page's URL with the parameters changed (the cursor and the way back dropped unless given). */
export function withParams(path: string, params: QueryParams, changes: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (k !== 'cursor' && k !== 'back') for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) if (x !== '' && !(k in changes)) q.append(k, x);
  for (const [k, v] of Object.entries(changes)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * Keyset pages have no cursor backwards, so the URL keeps the way back: the next page's link carries
 * every earlier page's cursor (`back`, the first page's as empty) and "Previous" pops the last one.
 */
export function pageLinks(path: string, params: QueryParams, b: Pick<Browse, 'cursor' | 'back'>, nextCursor: string | undefined) {
  const trail = (cursors: string[]) => cursors.map((c) => `back=${encodeURIComponent(c)}`).join('&');
  const join = (base: string, extra: string) => (extra ? `${base}${base.includes('?') ? '&' : '?'}${extra}` : base);
  const next = nextCursor ? join(withParams(path, params, { cursor: nextCursor }), trail([...b.back, b.cursor ?? ''])) : undefined;
  const previous = b.cursor ? join(withParams(path, params, { cursor: b.back.at(-1) || undefined }), trail(b.back.slice(0, -1))) : undefined;
  return { next, previous };
}

/**
 * A title cut into plain and matched parts: where a word of `q` matches (accents and case ignored,
 * as the search does) at a word's beginning, or inside a word for words of 4+ letters.
 */
export function highlightParts(title: string, q: string | undefined): { text: string; match: boolean }[] {
  const fold = (c: string) => c.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const words = (q ?? '')
    .split(/[^\p{L}\p{N}]+/u)
    .map((w) => [...w].map(fold).join(''))
    .filter((w) => w.length > 0);
  if (words.length === 0) return [{ text: title, match: false }];
  const chars = [...title];
  // each character folded on its own keeps positions: folded string index → character index
  const folded: string[] = [];
  const at: number[] = [];
  chars.forEach((c, i) => {
    for (const f of fold(c)) {
      folded.push(f);
      at.push(i);
    }
  });
  const text = folded.join('');
  const marked = new Array<boolean>(chars.length).fill(false);
  for (const w of words) {
    for (let from = text.indexOf(w); from !== -1; from = text.indexOf(w, from + 1)) {
      const wordStart = from === 0 || !/[\p{L}\p{N}]/u.test(text[from - 1]!);
      if (!wordStart && w.length < 4) continue;
      for (let k = from; k < from + w.length; k++) marked[at[k]!] = true;
    }
  }
  const parts: { text: string; match: boolean }[] = [];
  chars.forEach((c, i) => {
    const last = parts.at(-1);
    if (last && last.match === marked[i]) last.text += c;
    else parts.push({ text: c, match: marked[i]! });
  });
  return parts;
}
