import type { TaskList } from 'graphile-worker';
import type { DeliveryDeps } from '@hm/domain/emails';
import type { ImageDeps } from '@hm/domain/images';
import { purgeIdempotencyKeys } from './tasks/purge-idempotency-keys.js';
import { purgeRateLimits } from './tasks/purge-rate-limits.js';
import { sendEmail } from './tasks/emails/send-email.js';
import { processImage } from './tasks/listings/process-image.js';
import { applyPriceDrop } from './tasks/listings/apply-price-drop.js';
import { importRates, repriceAll, repriceListings } from './tasks/rates/reprice-listings.js';

/** What tasks need from the composition root (ORM, adapters, mode, clock). */
/** `ratesUrl`: where the optional daily import-rates job fetches reference rates. */
export type TaskDeps = DeliveryDeps & ImageDeps & { ratesUrl?: string };

/** Every task the worker runs, by name (one file per task under tasks/). */
export function createTaskList(deps: TaskDeps): TaskList {
  return {
    'purge-idempotency-keys': purgeIdempotencyKeys(deps),
    'purge-rate-limits': purgeRateLimits(deps),
    'send-email': sendEmail(deps),
    'process-image': processImage(deps),
    'apply-price-drop': applyPriceDrop(deps),
    'reprice-listings': repriceListings(deps),
    'reprice-all': repriceAll(deps),
    'import-rates': importRates(deps),
  };
}

/** Recurring jobs (graphile-worker crontab syntax). */
export const crontab = `
0 * * * * purge-idempotency-keys
30 * * * * purge-rate-limits
0 0 * * * import-rates
5 0 * * * reprice-all
`;
