import type { CommandContext } from '../../core/context.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { keyset, NOT_THIS_QUERY } from '../../core/keyset.js';
import { resolveLocale } from '../../core/locale.js';
import type { ListTermsInput } from '../catalog.schema.js';
import { termById, termBySlug, termsInUse, termsPage, type TermRow } from '../terms.queries.js';

export interface TermBody {
  id: string;
  kind: string;
  name: string;
  slug: string;
  description?: string;
  listing_count?: number;
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

/** Terms of one kind ordered by name (accent- and case-folded), keyset-paged. */
export async function listTerms(ctx: CommandContext, input: ListTermsInput): Promise<{ items: TermBody[]; next_cursor?: string }> {
  assertKind(ctx, input.kind, 'kind');
  const lang = resolveLocale(ctx.marketplace, input.locale);
  const dflt = ctx.marketplace.locales[0]!;

  if (input.in_use) {
    // Every term of the kind used by a listing on sale, with how many: all at once, `q` ignored.
    const rows = await termsInUse(ctx.em, lang, dflt, input.kind);
    return { items: rows.map((r) => ({ ...toBody(r, lang, dflt), listing_count: r.listing_count })) };
  }

  // The cursor holds the page's last term id, not its name (a name may be 200 characters of any
  // script, too long for a cursor): the page after it starts at that term's folded name, read back.
  const pages = keyset(JSON.stringify([ctx.marketplace.id, input.kind, lang, input.q ?? '']), ['uuid']);
  const [afterId] = pages.after(input.cursor) ?? [];
  const anchor = afterId === undefined ? undefined : await termById(ctx.em, lang, dflt, input.kind, afterId);
  if (afterId !== undefined && !anchor) throw new ValidationError([{ location: 'cursor', message: NOT_THIS_QUERY, value: input.cursor }]);
  const after = anchor && ([anchor.sort_name, anchor.id] as [string, string]);
  const rows = await termsPage(ctx.em, lang, dflt, input.kind, { prefix: input.q || undefined, after, limit: input.limit + 1 });
  const { items, nextCursor } = pages.page(rows, input.limit, (r) => [r.id]);
  return { items: items.map((r) => toBody(r, lang, dflt)), ...(nextCursor ? { next_cursor: nextCursor } : {}) };
}

export async function getTerm(ctx: CommandContext, kind: string, slug: string, locale: string | undefined): Promise<TermBody> {
  assertKind(ctx, kind, undefined);
  const lang = resolveLocale(ctx.marketplace, locale);
  const dflt = ctx.marketplace.locales[0]!;
  const row = await termBySlug(ctx.em, lang, dflt, kind, slug);
  if (!row) throw new NotFoundError(`Term "${kind}/${slug}"`);
  return toBody(row, lang, dflt);
}
