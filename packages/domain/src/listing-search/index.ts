/** Entry point of the listing-search module: what other modules, the flows and the HTTP contract may use. Everything else in listing-search/ is private. */
export { listFavorites, removeFavorite, saveFavorite } from './commands/favorites.js';
export { searchListings, SORTS } from './commands/search-listings.js';
export { savedAmong } from './favorites.queries.js';
export { toShopListing } from './listing-search.mapper.js';
export { ZFavoritesInput, ZFavoritesPage, ZGetListingInput, ZSearchInput, ZSearchPage, ZShopCurrency, ZShopListing } from './listing-search.schema.js';
export { displayNameOf, imagesOf, listingOnSale, listingRowsInOrder, shopRelationReads, sitesByIds, termsByIds } from './shop-reads.queries.js';
