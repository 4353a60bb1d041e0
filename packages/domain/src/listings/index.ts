/** Entry point of the listings module: what other modules, the flows and the HTTP contract may use. Everything else in listings/ is private. */
export { acceptOffer, counterOffer } from './commands/answer-offer.js';
export { closeListing, deleteListing } from './commands/close-listing.js';
export { countListingsForTeam, findOwnListing, listListingsForTeam, listOwnListings, type TeamListingFilter } from './commands/find-listings.js';
export { addListingImage, deleteListingImage, reorderListingImages } from './commands/listing-images.js';
export { applyPriceDropTask } from './commands/price-drops.js';
export { publishListing } from './commands/publish-listing.js';
export { approveListing, denyListing, offerForListing, setCommission, setCustody, setShippingSize } from './commands/review-listing.js';
export { createListing, replaceListing } from './commands/save-listing.js';
export { fulfilmentOf, imageUrls, loadRelations, type MapOptions, toImageBody, toListingBody } from './listing.mapper.js';
export { type ListingInput, ZAmountInput, ZCounterInput, ZImage, ZImageOrderInput, ZImageRef, ZListing, ZListingInput, ZListingPage, ZListingRef, ZListMyListings, ZMarketplaceCurrency, ZMoney, ZPriceScheduleInput, ZPublishInput } from './listing.schema.js';
export { LISTING_EFFECT_SLOTS } from './listing.effects.js';
export { type ListingMachineTypes } from './listing.machine.js';
export { setSellerBlocked, unitsOf } from './listings.queries.js';
export { listingRows, listingSeller, type ListingSeller, type TeamListing } from './team-listings.queries.js';
