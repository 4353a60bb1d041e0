import { z } from 'zod';
import { keyProcedure } from '../../trpc.js';
import { listPublishedPages, readPreview, readPublishedPage } from '@hm/domain/pages';
import { ZGetPageInput, ZPage, ZPreviewPageInput, ZPublishedPageList } from '@hm/domain/pages';

export const listPagesProcedure = keyProcedure
  .meta({ auth: 'key', publicRead: true, openapi: { operationId: 'listPages', method: 'GET', path: '/pages', tags: ['Content pages'], summary: 'Published pages', description: 'Every published page in every language it is published in, by slug then language.' } })
  .input(z.strictObject({}))
  .output(ZPublishedPageList)
  .query(async ({ ctx }) => ({ items: await listPublishedPages(ctx) }));

export const getPageProcedure = keyProcedure
  .meta({
    auth: 'key',
    publicRead: true,
    openapi: {
      operationId: 'getPage',
      method: 'GET',
      path: '/pages/{slug}',
      tags: ['Content pages'],
      summary: 'A published page',
      description:
        "The page in `locale` (else its base language, else the marketplace's default language), its blocks filled with live data: listings on sale, categories in the page's language, active locations, uploaded images. Blocks with nothing to show are left out; render by `type` and skip types you do not know. With `currency`, listing prices carry `display_price`. 404 until published.",
    },
  })
  .input(ZGetPageInput)
  .output(ZPage)
  .query(({ ctx, input }) => readPublishedPage(ctx, input, ctx.publicUrl));

export const previewPageProcedure = keyProcedure
  .meta({
    auth: 'key',
    headers: { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' },
    openapi: {
      operationId: 'previewPage',
      method: 'GET',
      path: '/pages/{slug}/preview',
      tags: ['Content pages'],
      summary: "A page's draft",
      description: 'The draft of the page a preview token was made for (console `pages preview-link`, valid 7 days), filled like a published page. Never cached or indexed (`Cache-Control: no-store`, `X-Robots-Tag: noindex`). A wrong or expired token answers 404.',
    },
  })
  .input(ZPreviewPageInput)
  .output(ZPage)
  .query(({ ctx, input }) => readPreview(ctx, input, ctx.publicUrl));
