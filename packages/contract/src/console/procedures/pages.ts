import { z } from 'zod';
import type { Context } from '@hm/domain/core';
import { consoleProcedure, zodIssuesToFieldErrors } from '../../trpc.js';
import { ZPageDraft, ZPageSlug, LIMITS } from '@hm/domain/pages';
import { listAllPages, newPreviewLink, publishPage, putPage, toPageSummary, unpublishPage } from '@hm/domain/pages';
import { setMediaAlt, uploadMedia } from '@hm/domain/pages';
import { toImageRef } from '@hm/domain/pages';
import { fromBinaryFile, fromFile } from '../console-fields.js';
import { ZMarketplaceRef, scoped } from '../console-scope.js';

const ZAlt = z.string().trim().min(1).max(300);
const ZAlts = z.record(z.string().min(1).max(35), z.string().trim().min(1).max(300));

const ZPageRef = ZMarketplaceRef.extend({
  slug: ZPageSlug.describe('Page slug (`home` is the front page).'),
  locale: z.string().min(1).max(LIMITS.locale).describe("One of the marketplace's languages."),
});

async function pageScope(ctx: Context, slug: string) {
  const { marketplace, em } = await scoped(ctx, slug);
  return { ...ctx, em, marketplace };
}

export const putPageProcedure = consoleProcedure
  .input(
    ZPageRef.extend({
      page: fromFile(z.record(z.string(), z.unknown()), 'Page JSON: {"title", "description", "share_image_id"?, "blocks": [{"id", "type", …fields of the type, references by id}]}.'),
    }).describe("Save a page's draft in one language (checked as a whole; every problem listed). The shop shows it once published."),
  )
  .mutation(async ({ ctx, input }) => {
    const cmd = await pageScope(ctx, input.marketplace);
    const parsed = ZPageDraft.safeParse(input.page);
    const structural = parsed.success ? [] : zodIssuesToFieldErrors(parsed.error, input.page).map((e) => ({ ...e, location: e.location ? `page.${e.location}` : 'page' }));
    const page = await putPage(cmd, { slug: input.slug, locale: input.locale, raw: input.page, draft: parsed.data, structural });
    return { page: toPageSummary(page) };
  });

export const publishPageProcedure = consoleProcedure.input(ZPageRef.describe('Publish the draft: the shop shows it from now on.')).mutation(async ({ ctx, input }) => {
  const page = await publishPage(await pageScope(ctx, input.marketplace), input.slug, input.locale);
  return { page: toPageSummary(page) };
});

export const unpublishPageProcedure = consoleProcedure.input(ZPageRef.describe('Take the page out of the shop (it answers 404); the draft stays.')).mutation(async ({ ctx, input }) => {
  const page = await unpublishPage(await pageScope(ctx, input.marketplace), input.slug, input.locale);
  return { page: toPageSummary(page) };
});

export const previewLinkProcedure = consoleProcedure
  .input(ZPageRef.describe("A preview link of the draft, valid 7 days, at the storefront's preview page (a new link ends the previous one)."))
  .mutation(async ({ ctx, input }) => ({ preview: await newPreviewLink(await pageScope(ctx, input.marketplace), input.slug, input.locale) }));

export const listPagesProcedure = consoleProcedure.input(ZMarketplaceRef.describe('Every page in every language, published or not.')).query(async ({ ctx, input }) => ({
  items: await listAllPages(await pageScope(ctx, input.marketplace)),
}));

export const uploadMediaProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({
      file: fromBinaryFile(z.instanceof(Buffer), 'The image: JPEG, PNG or WebP, up to 20 MiB and 50 megapixels.'),
      alt: ZAlt.describe("Text for people who cannot see the image, in the marketplace's default language (the fallback)."),
      alts: ZAlts.optional().describe('Per language, e.g. en="A bright room",sv="Ett ljust rum" (the marketplace\'s languages only).'),
    }).describe('Upload an image for content pages; answers its ImageRef (thumb, medium, large, xlarge).'),
  )
  .mutation(async ({ ctx, input }) => {
    const cmd = await pageScope(ctx, input.marketplace);
    return { image: toImageRef(await uploadMedia(cmd, { bytes: input.file, alt: input.alt, ...(input.alts ? { alts: input.alts } : {}) }), ctx.publicUrl) };
  });

export const setMediaAltProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({
      id: z.uuid().describe('Image id (the ImageRef `id`).'),
      alt: ZAlt.optional().describe("In the marketplace's default language (the fallback)."),
      alts: ZAlts.optional().describe('Per language (replaces them all; empty removes them).'),
    }).describe("Set an uploaded image's alt text, in the default language and per language."),
  )
  .mutation(async ({ ctx, input }) => {
    const cmd = await pageScope(ctx, input.marketplace);
    return { image: toImageRef(await setMediaAlt(cmd, input.id, { ...(input.alt !== undefined ? { alt: input.alt } : {}), ...(input.alts ? { alts: input.alts } : {}) }), ctx.publicUrl) };
  });
