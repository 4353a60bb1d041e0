import { z } from 'zod';
import type { Context } from '@hm/domain/core';
import { consoleProcedure, zodIssuesToFieldErrors } from '../../trpc.js';
import { ZPageDraft, ZPageSlug, LIMITS } from '@hm/domain/pages';
import { getPage, listAllPages, newPreviewLink, publishPage, putPage, toPageSummary, unpublishPage } from '@hm/domain/pages';
import { listMedia, setMediaAlt, uploadMedia } from '@hm/domain/pages';
import { toImageRef } from '@hm/domain/pages';
import { fromBinaryFile, fromFile } from '../console-fields.js';
import { ZMarketplaceRef, cliScope, scoped } from '../console-scope.js';
import { cmd, operation, perform } from '../operations.js';

/**
 * Content pages and the media library: `pages put|publish|unpublish|preview-link|list`, `media
 * upload|set-alt`, and the back office's /console/v1/pages… and /media (the same operations).
 */

export const ZAlt = z.string().trim().min(1).max(300);
export const ZAlts = z.record(z.string().min(1).max(35), z.string().trim().min(1).max(300));

export const ZPageKey = {
  slug: ZPageSlug.describe('Page slug (`home` is the front page).'),
  locale: z.string().min(1).max(LIMITS.locale).describe("One of the marketplace's languages."),
};
const ZPageRef = ZMarketplaceRef.extend(ZPageKey);
type PageKey = { slug: string; locale: string };
const pageTarget = (i: PageKey) => ({ type: 'page', id: `${i.slug}/${i.locale}` });

export const ZPageContent = z
  .record(z.string(), z.unknown())
  .describe('The page: {"title", "description", "share_image_id"?, "blocks": [{"id", "type", …fields of the type, references by id}]}. Checked as a whole: every problem is listed at its field (`page.blocks.2.heading` …).');

/** Saves a page's draft in one language: the draft's schema and its references are checked together, every problem at its field. */
export const putPageOp = operation({
  action: 'page.put',
  write: true,
  target: pageTarget,
  run: async (s, input: PageKey & { page: Record<string, unknown> }) => {
    const parsed = ZPageDraft.safeParse(input.page);
    const structural = parsed.success ? [] : zodIssuesToFieldErrors(parsed.error, input.page).map((e) => ({ ...e, location: e.location ? `page.${e.location}` : 'page' }));
    const page = await putPage(cmd(s), { slug: input.slug, locale: input.locale, raw: input.page, draft: parsed.data, structural });
    return { page: toPageSummary(page) };
  },
});
export const publishPageOp = operation({
  action: 'page.publish',
  write: true,
  target: pageTarget,
  run: async (s, input: PageKey) => ({ page: toPageSummary(await publishPage(cmd(s), input.slug, input.locale)) }),
});
export const unpublishPageOp = operation({
  action: 'page.unpublish',
  write: true,
  target: pageTarget,
  run: async (s, input: PageKey) => ({ page: toPageSummary(await unpublishPage(cmd(s), input.slug, input.locale)) }),
});
/** A write: the new link ends the previous one. The token is in the answer only, never in the audit row. */
export const previewLinkOp = operation({
  action: 'page.preview_link',
  write: true,
  target: pageTarget,
  run: async (s, input: PageKey) => ({ preview: await newPreviewLink(cmd(s), input.slug, input.locale) }),
});
export const listPagesOp = operation({
  action: 'pages.list',
  write: false,
  target: () => ({ type: 'page', id: '' }),
  run: async (s, _input: object) => ({ items: await listAllPages(cmd(s)) }),
});
export const getPageOp = operation({
  action: 'page.get',
  write: false,
  target: pageTarget,
  run: (s, input: PageKey) => getPage(cmd(s), input.slug, input.locale),
});

type UploadInput = { bytes: Buffer; alt: string; alts?: Record<string, string> | undefined };
export const uploadMediaOp = operation({
  action: 'media.upload',
  write: true,
  target: (_i, out: { image: { id: string } }) => ({ type: 'media', id: out.image.id }),
  run: async (s, input: UploadInput) => ({ image: toImageRef(await uploadMedia(cmd(s), { bytes: input.bytes, alt: input.alt, ...(input.alts ? { alts: input.alts } : {}) }), s.ctx.publicUrl) }),
  auditData: (i: UploadInput) => ({ bytes: i.bytes.length, alt: i.alt, ...(i.alts ? { alts: i.alts } : {}) }), // not the image itself
});
export const listMediaOp = operation({
  action: 'media.list',
  write: false,
  target: () => ({ type: 'media', id: '' }),
  run: async (s, input: { limit: number }) => ({ items: (await listMedia(cmd(s), input.limit)).map((m) => toImageRef(m, s.ctx.publicUrl)) }),
});

async function pageScope(ctx: Context, slug: string) {
  return cliScope(ctx, await scoped(ctx, slug));
}

export const putPageProcedure = consoleProcedure
  .input(ZPageRef.extend({ page: fromFile(ZPageContent, 'Page JSON: {"title", "description", "share_image_id"?, "blocks": [{"id", "type", …fields of the type, references by id}]}.') }).describe("Save a page's draft in one language (checked as a whole; every problem listed). The shop shows it once published."))
  .mutation(async ({ ctx, input }) => perform(putPageOp, await pageScope(ctx, input.marketplace), input));

export const publishPageProcedure = consoleProcedure
  .input(ZPageRef.describe('Publish the draft: the shop shows it from now on.'))
  .mutation(async ({ ctx, input }) => perform(publishPageOp, await pageScope(ctx, input.marketplace), input));

export const unpublishPageProcedure = consoleProcedure
  .input(ZPageRef.describe('Take the page out of the shop (it answers 404); the draft stays.'))
  .mutation(async ({ ctx, input }) => perform(unpublishPageOp, await pageScope(ctx, input.marketplace), input));

export const previewLinkProcedure = consoleProcedure
  .input(ZPageRef.describe("A preview link of the draft, valid 7 days, at the storefront's preview page (a new link ends the previous one)."))
  .mutation(async ({ ctx, input }) => perform(previewLinkOp, await pageScope(ctx, input.marketplace), input));

export const listPagesProcedure = consoleProcedure
  .input(ZMarketplaceRef.describe('Every page in every language, published or not.'))
  .query(async ({ ctx, input }) => perform(listPagesOp, await pageScope(ctx, input.marketplace), {}));

export const uploadMediaProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({
      file: fromBinaryFile(z.instanceof(Buffer), 'The image: JPEG, PNG or WebP, up to 20 MiB and 50 megapixels.'),
      alt: ZAlt.describe("Text for people who cannot see the image, in the marketplace's default language (the fallback)."),
      alts: ZAlts.optional().describe('Per language, e.g. en="A bright room",sv="Ett ljust rum" (the marketplace\'s languages only).'),
    }).describe('Upload an image for content pages; answers its ImageRef (thumb, medium, large, xlarge).'),
  )
  .mutation(async ({ ctx, input }) => perform(uploadMediaOp, await pageScope(ctx, input.marketplace), { bytes: input.file, alt: input.alt, alts: input.alts }));

export const setMediaAltProcedure = consoleProcedure
  .input(
    ZMarketplaceRef.extend({
      id: z.uuid().describe('Image id (the ImageRef `id`).'),
      alt: ZAlt.optional().describe("In the marketplace's default language (the fallback)."),
      alts: ZAlts.optional().describe('Per language (replaces them all; empty removes them).'),
    }).describe("Set an uploaded image's alt text, in the default language and per language."),
  )
  .mutation(async ({ ctx, input }) => {
    const scope = await pageScope(ctx, input.marketplace);
    return { image: toImageRef(await setMediaAlt(cmd(scope), input.id, { ...(input.alt !== undefined ? { alt: input.alt } : {}), ...(input.alts ? { alts: input.alts } : {}) }), ctx.publicUrl) };
  });
