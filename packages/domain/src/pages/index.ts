/** Entry point of the pages module: what other modules, the flows and the HTTP contract may use. Everything else in pages/ is private. */
export { toImageRef } from './commands/fill-blocks.js';
export { listAllPages, newPreviewLink, publishPage, putPage, toPageSummary, unpublishPage } from './commands/pages.js';
export { uploadMedia } from './commands/upload-media.js';
export { LIMITS, ZPageDraft, ZPageSlug } from './pages.schema.js';
