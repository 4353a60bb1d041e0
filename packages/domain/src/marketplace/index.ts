/** Entry point of the marketplace module: what other modules, the flows and the HTTP contract may use. Everything else in marketplace/ is private. */
export { createMarketplace, findMarketplaceBySlug, updateMarketplace, ZCreateMarketplace } from './commands/save-marketplace.js';
export { toMarketplaceBody, toMarketplaceConsoleBody } from './marketplace.mapper.js';
export { type ShippingTableBody, ZMarketplace, ZMarketplaceSettings } from './marketplace.schema.js';
export { ABUSE_LIMIT_DEFAULTS, abuseLimitsOf } from './abuse-limits.js';
