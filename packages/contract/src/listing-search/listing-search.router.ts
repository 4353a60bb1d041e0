import { router } from '../trpc.js';
import { deleteFavorite, listFavorites, putFavorite } from './procedures/favorites.js';
import { getListing } from './procedures/get-listing.js';
import { searchListings } from './procedures/search-listings.js';

export const listingsRouter = router({ search: searchListings, get: getListing });
export const favoritesRouter = router({ list: listFavorites, put: putFavorite, delete: deleteFavorite });
