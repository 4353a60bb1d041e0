/** Entry point of the locations module: what other modules, the flows and the HTTP contract may use. Everything else in locations/ is private. */
export { createSite, listActiveSites, toSiteBody } from './commands/sites.js';
export { ZSiteInput, ZSiteList } from './locations.schema.js';
