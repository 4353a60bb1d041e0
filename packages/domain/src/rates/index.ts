/** Entry point of `@hm/domain/rates`: the day's rates, the rates port and its HTTP adapter. */
export { repriceListings, queueReprice } from './commands/reprice-listings.js';
export { RateBook, loadRateBook, minorDigits } from './rate-book.js';
export { importReferenceRates } from './commands/import-rates.js';
export { ZReferenceRates, type ReferenceRates, type RateSource } from './rate-source.js';
export { httpRateSource } from './adapters/http-rate-source.js';
