import { z } from 'zod';
import { router } from '../../trpc.js';
import { perform } from '../../console/operations.js';
import { ZAlt, ZAlts, ZPageContent, ZPageKey, getPageOp, listMediaOp, listPagesOp, previewLinkOp, publishPageOp, putPageOp, unpublishPageOp, uploadMediaOp } from '../../console/procedures/pages.js';
import { operatorProcedure } from '../procedure.js';
import { openapi, read, write } from '../meta.js';
import { ZAnyObject } from '../schemas.js';

const ZPageRef = z.strictObject(ZPageKey);
const ZPageOut = z.object({ page: ZAnyObject });

/**
 * Content pages (a draft per language, published on demand) and the media library. The page's own
 * path (GET, PUT) comes after its actions in the document: saving creates a page, so the ownership
 * matrix saves another marketplace's copy last.
 */
export const pages = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/pages', 'Content', 'Pages', 'Every page in every language, published or not, by slug then language; `draft_differs` when the draft has changes not yet published.')))
    .input(z.object({}))
    .output(z.object({ items: z.array(ZAnyObject) }))
    .query(({ ctx }) => perform(listPagesOp, ctx.scope, {})),
  publish: operatorProcedure
    .meta(write(openapi('POST', '/pages/{slug}/{locale}/publish', 'Content', 'Publish a page', 'Admins only. The draft becomes what the shop shows (its references are checked again: 422 at the field of one that is gone).')))
    .input(ZPageRef)
    .output(ZPageOut)
    .mutation(({ ctx, input }) => perform(publishPageOp, ctx.scope, input)),
  unpublish: operatorProcedure
    .meta(write(openapi('POST', '/pages/{slug}/{locale}/unpublish', 'Content', 'Unpublish a page', 'Admins only. The shop answers 404 for the page again; the draft stays.')))
    .input(ZPageRef)
    .output(ZPageOut)
    .mutation(({ ctx, input }) => perform(unpublishPageOp, ctx.scope, input)),
  previewLink: operatorProcedure
    .meta(write(openapi('POST', '/pages/{slug}/{locale}/preview-link', 'Content', 'Make a preview link', "Admins only. A link to the draft at the storefront's preview page, valid 7 days; a new link ends the previous one. The token is in this answer only."), { successStatus: 201 }))
    .input(ZPageRef)
    .output(z.object({ preview: z.object({ token: z.string(), expires_at: z.string(), url: z.string() }) }))
    .mutation(({ ctx, input }) => perform(previewLinkOp, ctx.scope, input)),
  get: operatorProcedure
    .meta(read(openapi('GET', '/pages/{slug}/{locale}', 'Content', 'A page', 'The page in one language: its summary and its draft as saved (`title`, `description`, `share_image_id`, `blocks` by type), the values of the editor’s form.')))
    .input(ZPageRef)
    .output(z.object({ page: ZAnyObject, draft: ZAnyObject }))
    .query(async ({ ctx, input }) => {
      const { page, draft } = await perform(getPageOp, ctx.scope, input);
      return { page, draft: { ...draft } };
    }),
  put: operatorProcedure
    .meta(
      write(
        openapi(
          'PUT',
          '/pages/{slug}/{locale}',
          'Content',
          'Save a page draft',
          'Admins only. Creates or replaces the draft of a page in one language with the same checks as the command line: the blocks’ schemas by type and every reference (images, listings, categories, sites of this marketplace), all problems at once, each at its field (`body.page.blocks.1.heading`). The shop shows it once published.',
        ),
        { requestExample: { page: { title: 'About us', description: 'Who we are.', blocks: [{ id: 'intro', type: 'text', body: 'We sell second-hand furniture.' }] } } },
      ),
    )
    .input(z.strictObject({ ...ZPageKey, page: ZPageContent }))
    .output(ZPageOut)
    .mutation(({ ctx, input }) => perform(putPageOp, ctx.scope, input)),
});

export const media = router({
  list: operatorProcedure
    .meta(read(openapi('GET', '/media', 'Content', 'Media library', 'Images uploaded for content pages, the newest first, as ImageRefs (`id`, `alt`, `alts`, sizes and `urls`).')))
    .input(z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).default(100).describe('1..1000, default 100.') }))
    .output(z.object({ items: z.array(ZAnyObject) }))
    .query(({ ctx, input }) => perform(listMediaOp, ctx.scope, input)),
  /** The body is the image's bytes: a raw route (apps/api/src/http/console.ts) calls this in-process; no REST route of its own. */
  upload: operatorProcedure
    .meta({ auth: 'operator', write: true })
    .input(z.strictObject({ bytes: z.instanceof(Buffer), alt: ZAlt, alts: ZAlts.optional() }))
    .mutation(({ ctx, input }) => perform(uploadMediaOp, ctx.scope, input)),
});
