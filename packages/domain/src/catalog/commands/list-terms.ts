import type { Localized } from '@hm/db/entities';
import type { CommandContext } from '../../context.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { keyset } from '../../shared/keyset.js';
import { ON_SALE } from '../../listing-search/commands/search-listings.js';
import { resolveLocale } from '../../shared/locale.js';
import type { ListTermsInput } from '../catalog.schema.js';

export interface TermBody {
  id: string;
  kind: string;
  name: string;
  slug: string;
  description?: string;
  listing_count?: number;
}

interface TermRow {
  id: string;
  kind: string;
  slug: string;
  name: string;
  sort_name: string;
  descriptions: Localized;
}

function assertKind(ctx: CommandContext, kind: string, location: string | undefined): void {
  if (ctx.marketplace.termKinds.some((k) => k.key === kind)) return;
  const known = ctx.marketplace.termKinds.map((k) => k.key).join(', ') || 'none';
  if (location === undefined) throw new NotFoundError(`Term kind "${kind}"`);
  throw new ValidationError([{ location, message: `Must be one of the marketplace's term kinds (${known}).`, value: kind }]);
}

function toBody(row: TermRow, lang: string, dflt: string): TermBody {
  const description = row.descriptions[lang] ?? row.descriptions[dflt];
  return { id: row.id, kind: row.kind, name: row.name, slug: row.slug, ...(description ? { description } : {}) };
}

/**
 * Terms of one kind with their name in `lang` (else the default language), and that name folded
 * (lower case, accents removed) for prefix matching and ordering. Binds: lang, dflt, marketplace, kind.
 */
const TERMS_SQL = `select t.id, t.kind, t.slug, t.descriptions, t.name, hm_fold(t.name) as sort_name
  from (select id, kind, slug, descriptions, coalesce(names->>?, names->>?, slug) as name
          from catalog_terms where marketplace_id = ? and kind = ?) t`;

/** Terms of one kind ordered by name (accent- and case-folded), keyset-paged. */
export async function listTerms(ctx: CommandContext, input: ListTermsInput): Promise<{ items: TermBody[]; next_cursor?: string }> {
  assertKind(ctx, input.kind, 'kind');
  const lang = resolveLocale(ctx.marketplace, input.locale);
  const dflt = ctx.marketplace.locales[0]!;

  if (input.in_use) {
    // Every term of the kind used by a listing on sale, with how many: all at once, `q` ignored.
    const rows = await ctx.em.getConnection().execute<(TermRow & { listing_count: number })[]>(
      `select t.*, u.n as listing_count from (${TERMS_SQL}) t
         join (select term_id, count(*)::int as n from listings l, unnest(l.term_ids) term_id
                where l.marketplace_id = ? and ${ON_SALE} group by term_id) u on u.term_id = t.id
        order by t.sort_name, t.id`,
      [lang, dflt, ctx.marketplace.id, input.kind, ctx.marketplace.id],
    );
    return { items: rows.map((r) => ({ ...toBody(r, lang, dflt), listing_count: r.listing_count })) };
  }

  const conditions: string[] = [];
  const params: unknown[] = [lang, dflt, ctx.marketplace.id, input.kind];
  if (input.q) {
    conditions.push(`hm_fold(t.name) like hm_fold(?) || '%'`);
    params.push(input.q.replace(/[\\%_]/g, (c) => `\\${c}`));
  }
  const pages = keyset(JSON.stringify([ctx.marketplace.id, input.kind, lang, input.q ?? '']), ['text', 'uuid']);
  const after = pages.after(input.cursor);
  if (after) {
    conditions.push(`(hm_fold(t.name), t.id) > (?, ?::uuid)`);
    params.push(...after);
  }
  params.push(input.limit + 1);
  const where = conditions.length ? ` where ${conditions.join(' and ')}` : '';
  const rows = await ctx.em.getConnection().execute<TermRow[]>(`${TERMS_SQL}${where} order by 6, 1 limit ?`, params);
  const { items, nextCursor } = pages.page(rows, input.limit, (r) => [r.sort_name, r.id]);
  return { items: items.map((r) => toBody(r, lang, dflt)), ...(nextCursor ? { next_cursor: nextCursor } : {}) };
}

export async function getTerm(ctx: CommandContext, kind: string, slug: string, locale: string | undefined): Promise<TermBody> {
  assertKind(ctx, kind, undefined);
  const lang = resolveLocale(ctx.marketplace, locale);
  const dflt = ctx.marketplace.locales[0]!;
  const [row] = await ctx.em
    .getConnection()
    .execute<TermRow[]>(
      `${TERMS_SQL} where t.slug = ?`,
      [lang, dflt, ctx.marketplace.id, kind, slug],
    );
  if (!row) throw new NotFoundError(`Term "${kind}/${slug}"`);
  return toBody(row, lang, dflt);
}
