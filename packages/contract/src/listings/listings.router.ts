import { router } from '../trpc.js';
import { acceptOffer, counterOffer } from './procedures/answer-offer.js';
import { closeListing } from './procedures/close-listing.js';
import { createListing } from './procedures/create-listing.js';
import { deleteListing } from './procedures/delete-listing.js';
import { getMyListing } from './procedures/get-my-listing.js';
import { deleteListingImage, orderListingImages } from './procedures/listing-images.js';
import { listMyListings } from './procedures/list-my-listings.js';
import { publishListing } from './procedures/publish-listing.js';
import { replaceListing } from './procedures/replace-listing.js';

/** /v1/me/listings… (the photo upload itself is a raw route: see uploads.router.ts). */
export const myListingsRouter = router({
  list: listMyListings,
  create: createListing,
  get: getMyListing,
  replace: replaceListing,
  delete: deleteListing,
  close: closeListing,
  publish: publishListing,
  acceptOffer,
  counterOffer,
  orderImages: orderListingImages,
  deleteImage: deleteListingImage,
});
