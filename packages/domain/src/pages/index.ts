/** Entry point of the pages module: what other modules, the flows and the HTTP contract may use. Everything else in pages/ is private. */
export { toImageRef } from './commands/fill-blocks.js';
export { getPage, listAllPages, listPublishedPages, newPreviewLink, publishPage, putPage, readPreview, readPublishedPage, toPageSummary, unpublishPage } from './commands/pages.js';
export { listMedia, setMediaAlt, uploadMedia } from './commands/upload-media.js';
export { BLOCK_INPUTS, BLOCK_TYPES, LIMITS, ZGetPageInput, ZPage, ZPageDraft, ZPageSlug, ZPreviewPageInput, ZPublishedPageList } from './pages.schema.js';
