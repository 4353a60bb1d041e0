import { appendEvent } from '../../core/events.js';
import { CategorySchema, ListingSchema, MediaSchema, PageSchema, SiteSchema, type Page, type PageContent } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import type { CommandContext } from '../../core/context.js';
import { NotFoundError, ValidationError, type FieldError } from '../../core/errors.js';
import { loadRateBook, RateBook, todayOf } from '../../rates/index.js';
import { resolveLocale } from '../../core/locale.js';
import { hashToken, newSecretToken } from '../../core/secret-token.js';
import type { PageBody, PageDraft } from '../pages.schema.js';
import { fillPage } from './fill-blocks.js';

/** A preview link is valid this long (issue: 7 days). */
export const PREVIEW_DAYS = 7;

const rates = (ctx: CommandContext, currency: string | undefined) =>
  currency ? loadRateBook(ctx.em, ctx.marketplace, todayOf(ctx.clock.now())) : Promise.resolve(new RateBook([], ctx.marketplace.currencies[0] ?? ''));

/** GET /v1/pages: every published page in every language, by slug then language. */
export async function listPublishedPages(ctx: CommandContext) {
  const pages = await ctx.em.find(PageSchema, { publishedAt: { $ne: null } }, { orderBy: { slug: 'asc', locale: 'asc' }, fields: ['slug', 'locale', 'publishedAt'] });
  return pages.map((p) => ({ slug: p.slug, locale: p.locale, published_at: p.publishedAt!.toISOString() }));
}

/**
 * GET /v1/pages/{slug}: the published page in the asked language (resolved like every `locale`:
 * exact, base language, default), else in the default language; 404 until published.
 */
export async function readPublishedPage(ctx: CommandContext, input: { slug: string; locale?: string; currency?: string }, publicUrl: string): Promise<PageBody> {
  const wanted = resolveLocale(ctx.marketplace, input.locale);
  const fallback = ctx.marketplace.locales[0]!;
  const rows = await ctx.em.find(PageSchema, { slug: input.slug, locale: { $in: [...new Set([wanted, fallback])] }, publishedAt: { $ne: null } });
  const page = rows.find((p) => p.locale === wanted) ?? rows.find((p) => p.locale === fallback);
  if (!page?.published) throw new NotFoundError('This page');
  return fillPage(ctx, page.published, { slug: page.slug, locale: page.locale, publishedAt: page.publishedAt, currency: input.currency, rates: await rates(ctx, input.currency), publicUrl });
}

/** GET /v1/pages/{slug}/preview: the draft, for whoever holds a live preview token of this page. */
export async function readPreview(ctx: CommandContext, input: { slug: string; token: string; currency?: string }, publicUrl: string): Promise<PageBody> {
  const page = await ctx.em.findOne(PageSchema, { slug: input.slug, previewTokenHash: hashToken(input.token) });
  if (!page || !page.previewExpiresAt || page.previewExpiresAt <= ctx.clock.now()) {
    throw new NotFoundError('This preview');
  }
  return fillPage(ctx, page.draft, { slug: page.slug, locale: page.locale, publishedAt: page.publishedAt, currency: input.currency, rates: await rates(ctx, input.currency), publicUrl });
}

/** Ids a draft refers to, with where each is (`blocks.2.listing_ids.0`), read from the draft as sent (well-formed or not). */
function references(raw: unknown) {
  const refs = { media: [] as [string, string][], listings: [] as [string, string][], categories: [] as [string, string][], sites: [] as [string, string][] };
  const uuid = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
  const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!obj(raw)) return refs;
  if (uuid(raw.share_image_id)) refs.media.push(['share_image_id', raw.share_image_id]);
  const blocks = Array.isArray(raw.blocks) ? raw.blocks : [];
  blocks.forEach((b, i) => {
    if (!obj(b)) return;
    const at = `blocks.${i}`;
    for (const f of ['image_id', 'phone_image_id'] as const) if (uuid(b[f])) refs.media.push([`${at}.${f}`, b[f]]);
    if (uuid(b.listing_id)) refs.listings.push([`${at}.listing_id`, b.listing_id]);
    if (Array.isArray(b.listing_ids)) b.listing_ids.forEach((id, j) => uuid(id) && refs.listings.push([`${at}.listing_ids.${j}`, id]));
    if (uuid(b.location_id)) refs.sites.push([`${at}.location_id`, b.location_id]);
    if (obj(b.rule) && uuid(b.rule.category_id)) refs.categories.push([`${at}.rule.category_id`, b.rule.category_id]);
    if (Array.isArray(b.tiles))
      b.tiles.forEach((t, j) => {
        if (!obj(t)) return;
        if (uuid(t.category_id)) refs.categories.push([`${at}.tiles.${j}.category_id`, t.category_id]);
        if (uuid(t.image_id)) refs.media.push([`${at}.tiles.${j}.image_id`, t.image_id]);
      });
  });
  return refs;
}

/**
 * Every id a draft refers to must be a thing of this marketplace (another marketplace's ids read as
 * missing). Checked even when the draft has other problems, so one answer lists everything.
 */
export async function referenceProblems(em: EntityManager, raw: unknown): Promise<FieldError[]> {
  const refs = references(raw);
  const ids = (list: [string, string][]) => [...new Set(list.map(([, id]) => id.toLowerCase()))];
  const [media, listings, categories, sites] = await Promise.all([
    refs.media.length ? em.find(MediaSchema, { id: { $in: ids(refs.media) } }, { fields: ['id'] }) : [],
    refs.listings.length ? em.find(ListingSchema, { id: { $in: ids(refs.listings) } }, { fields: ['id'] }) : [],
    refs.categories.length ? em.find(CategorySchema, { id: { $in: ids(refs.categories) } }, { fields: ['id'] }) : [],
    refs.sites.length ? em.find(SiteSchema, { id: { $in: ids(refs.sites) } }, { fields: ['id'] }) : [],
  ]);
  const problems: FieldError[] = [];
  const check = (list: [string, string][], found: { id: string }[], what: string) => {
    const have = new Set(found.map((f) => f.id));
    for (const [location, id] of list) if (!have.has(id.toLowerCase())) problems.push({ location, message: `No such ${what} in this marketplace.`, value: id });
  };
  check(refs.media, media, 'uploaded image');
  check(refs.listings, listings, 'listing');
  check(refs.categories, categories, 'category');
  check(refs.sites, sites, 'site');
  return problems;
}

/** Block ids are unique in a page (checked on the draft as sent, so this is listed with every other problem). */
function duplicateIds(raw: unknown): FieldError[] {
  const blocks = typeof raw === 'object' && raw !== null && Array.isArray((raw as { blocks?: unknown }).blocks) ? ((raw as { blocks: unknown[] }).blocks) : [];
  const seen = new Map<string, number>();
  const problems: FieldError[] = [];
  blocks.forEach((b, i) => {
    const id = typeof b === 'object' && b !== null ? (b as { id?: unknown }).id : undefined;
    if (typeof id !== 'string' || id === '') return;
    const first = seen.get(id);
    if (first === undefined) seen.set(id, i);
    else problems.push({ location: `blocks.${i}.id`, message: `Block ids must be unique in the page; block ${first} has this id too.`, value: id });
  });
  return problems;
}

const byLocation = (a: FieldError, b: FieldError) => a.location.localeCompare(b.location, 'en', { numeric: true });

/**
 * `pages put`: saves the draft of one page in one language (created on first put). `structural`
 * are the problems the draft's schema found; references are checked as well, and all are answered
 * at once. The published copy is untouched until `pages publish`.
 */
export async function putPage(ctx: CommandContext, input: { slug: string; locale: string; raw: unknown; draft: PageDraft | undefined; structural: FieldError[] }): Promise<Page> {
  const problems = [...input.structural];
  if (!ctx.marketplace.locales.includes(input.locale)) problems.push({ location: 'locale', message: `Must be one of the marketplace's languages: ${ctx.marketplace.locales.join(', ')}.`, value: input.locale });
  problems.push(...[...duplicateIds(input.raw), ...(await referenceProblems(ctx.em, input.raw))].map((p) => ({ ...p, location: `page.${p.location}` })));
  if (problems.length || !input.draft) throw new ValidationError(problems.sort(byLocation));
  const content: PageContent = { ...input.draft, blocks: input.draft.blocks as unknown as Record<string, unknown>[] };
  const existing = await ctx.em.findOne(PageSchema, { slug: input.slug, locale: input.locale });
  if (existing) existing.draft = content;
  const page = existing ?? ctx.em.create(PageSchema, { marketplaceId: ctx.marketplace.id, slug: input.slug, locale: input.locale, draft: content, published: null, publishedAt: null, previewTokenHash: null, previewExpiresAt: null });
  await ctx.em.flush();
  return page;
}

async function pageOf(ctx: CommandContext, slug: string, locale: string): Promise<Page> {
  const page = await ctx.em.findOne(PageSchema, { slug, locale });
  if (!page) throw new NotFoundError('This page');
  return page;
}

/**
 * `pages publish`: the draft becomes what the shop shows. Its references are checked again (a
 * listing or image may be gone since the put; a listing merely sold is fine: its block is left out).
 */
export async function publishPage(ctx: CommandContext, slug: string, locale: string): Promise<Page> {
  const page = await pageOf(ctx, slug, locale);
  const problems = (await referenceProblems(ctx.em, page.draft)).map((p) => ({ ...p, location: `page.${p.location}` }));
  if (problems.length) throw new ValidationError(problems.sort(byLocation));
  page.published = page.draft;
  page.publishedAt = ctx.clock.now();
  await ctx.em.transactional(async (em) => {
    await em.flush();
    await appendEvent(em, { type: 'page.published', object: publishedPageObject(page), at: page.publishedAt! });
  });
  return page;
}

/** `pages unpublish`: the page answers 404 again; the draft stays. */
export async function unpublishPage(ctx: CommandContext, slug: string, locale: string): Promise<Page> {
  const page = await pageOf(ctx, slug, locale);
  const was = page.publishedAt;
  page.published = null;
  page.publishedAt = null;
  await ctx.em.transactional(async (em) => {
    await em.flush();
    if (was) await appendEvent(em, { type: 'page.unpublished', object: publishedPageObject(page), previous: { published_at: was.toISOString() }, at: ctx.clock.now() });
  });
  return page;
}

/** A page in the events (`page.published`, `page.unpublished`) as /v1/pages lists it: slug, locale and, while published, since when. */
function publishedPageObject(p: Page) {
  return { slug: p.slug, locale: p.locale, ...(p.publishedAt ? { published_at: p.publishedAt.toISOString() } : {}) };
}

/** `pages preview-link`: a new token (the previous one stops working), valid PREVIEW_DAYS. */
export async function newPreviewLink(ctx: CommandContext, slug: string, locale: string) {
  const page = await pageOf(ctx, slug, locale);
  const token = newSecretToken('pv_');
  const expiresAt = new Date(ctx.clock.now().getTime() + PREVIEW_DAYS * 24 * 3600 * 1000);
  page.previewTokenHash = hashToken(token);
  page.previewExpiresAt = expiresAt;
  await ctx.em.flush();
  const shop = (ctx.marketplace.storefrontUrl ?? '').replace(/\/+$/, '');
  return { token, expires_at: expiresAt.toISOString(), url: `${shop}/${locale}/preview/${slug}?token=${encodeURIComponent(token)}` };
}

/** The back office's page editor: one page in one language, its draft as saved (the form's values) and whether it is published. */
export async function getPage(ctx: CommandContext, slug: string, locale: string) {
  const page = await pageOf(ctx, slug, locale);
  return { page: toPageSummary(page), draft: page.draft };
}

/** `pages list` (console): every page in every language, with whether and when it is published. */
export async function listAllPages(ctx: CommandContext) {
  const pages = await ctx.em.find(PageSchema, {}, { orderBy: { slug: 'asc', locale: 'asc' } });
  return pages.map(toPageSummary);
}

export function toPageSummary(p: Page) {
  return {
    slug: p.slug,
    locale: p.locale,
    title: p.draft.title,
    blocks: p.draft.blocks.length,
    published: p.published !== null,
    ...(p.publishedAt ? { published_at: p.publishedAt.toISOString() } : {}),
    draft_differs: p.published !== null && JSON.stringify(p.published) !== JSON.stringify(p.draft),
    updated_at: p.updatedAt.toISOString(),
  };
}
