/** Entry point of `@hm/domain/rates`: the day's rates, the rates port and its HTTP adapter. */
export { type RateSource, type ReferenceRates, ZReferenceRates } from './../core/ports/rate-source.js';
export { httpRateSource } from './adapters/http-rate-source.js';
export { importRatesTask, importReferenceRates } from './commands/import-rates.js';
export { queueReprice, repriceAllTask, repriceIn, repriceListings, repriceListingsTask } from './commands/reprice-listings.js';
export { currentRates, setRates, toRateBody, ZSetRates } from './commands/set-rates.js';
export { loadRateBook, RateBook, todayOf } from './rate-book.js';
