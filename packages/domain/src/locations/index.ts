/** Entry point of the locations module: what other modules, the flows and the HTTP contract may use. Everything else in locations/ is private. */
export { createSite, listActiveSites, setSiteOpeningHours, toSiteBody } from './commands/sites.js';
export { ZSiteInput, ZSiteList, ZSiteOpeningHoursInput } from './locations.schema.js';
