/** Entry point of the listing-search module: what other modules, the flows and the HTTP contract may use. Everything else in listing-search/ is private. */
export { saveFavorite } from './commands/favorites.js';
export { SORTS } from './commands/search-listings.js';
export { toShopListing } from './listing-search.mapper.js';
export { ZShopCurrency, ZShopListing } from './listing-search.schema.js';
