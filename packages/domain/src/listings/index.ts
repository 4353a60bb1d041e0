/** Entry point of the listings module: what other modules, the flows and the HTTP contract may use. Everything else in listings/ is private. */
export { addListingImage, deleteListingImage } from './commands/listing-images.js';
export { applyPriceDropTask } from './commands/price-drops.js';
export { publishListing } from './commands/publish-listing.js';
export { approveListing, denyListing, offerForListing, setCommission, setCustody, setShippingSize } from './commands/review-listing.js';
export { createListing } from './commands/save-listing.js';
export { LISTING_EFFECT_SLOTS } from './listing.effects.js';
export { type ListingMachineTypes } from './listing.machine.js';
export { fulfilmentOf, loadRelations, type MapOptions, toListingBody } from './listing.mapper.js';
export { type ListingInput, ZListing, ZListingInput, ZMarketplaceCurrency, ZMoney, ZPriceScheduleInput } from './listing.schema.js';
export { setSellerBlocked } from './listings.queries.js';
