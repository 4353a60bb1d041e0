/** Entry point of `@hm/domain/rates`: the day's rates and the reprice job. */
export { repriceListings, queueReprice, REPRICE_TASK } from './commands/reprice-listings.js';
export { RateBook, loadRateBook, minorDigits, roundMoney } from './rate-book.js';
export { importReferenceRates, ZReferenceRates } from './commands/import-rates.js';
export { queueRepriceEverywhere } from './rates.queries.js';
