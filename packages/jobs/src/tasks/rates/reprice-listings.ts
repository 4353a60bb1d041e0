import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { crossTenantEm, type MikroORM } from '@hm/db/orm';
import type { Clock } from '@hm/domain/context';
import { importReferenceRates, queueRepriceEverywhere, repriceListings as repriceListingsCommand, REPRICE_TASK } from '@hm/domain/rates';

const ZPayload = z.object({ marketplace_id: z.uuid() });

/** Brings one marketplace's listing prices in its default currency in line with the day's rates. */
export const repriceListings =
  (deps: { orm: MikroORM; clock: Clock }): Task =>
  async (payload, helpers) => {
    const { marketplace_id } = ZPayload.parse(payload);
    const r = await repriceListingsCommand(deps, marketplace_id);
    helpers.logger.info(`repriced ${marketplace_id}: ${r.currencies} currencies, ${r.listings} listings changed`);
  };

/** Daily: rates dated today (set in advance) take effect; one reprice job per marketplace. */
export const repriceAll =
  (deps: { orm: MikroORM }): Task =>
  async (payload, helpers) => {
    z.object({}).passthrough().parse(payload ?? {});
    const n = await queueRepriceEverywhere(crossTenantEm(deps.orm), REPRICE_TASK);
    helpers.logger.info(`queued reprice for ${n} marketplaces`);
  };

/** Daily, when RATES_URL is set: reference rates for every marketplace (then each reprices). */
export const importRates =
  (deps: { orm: MikroORM; ratesUrl?: string }): Task =>
  async (payload, helpers) => {
    z.object({}).passthrough().parse(payload ?? {});
    if (!deps.ratesUrl) {
      helpers.logger.debug('import-rates: no RATES_URL set; rates come from the console only');
      return;
    }
    const r = await importReferenceRates(deps, deps.ratesUrl);
    helpers.logger.info(`import-rates: ${r.rates} rates of ${r.date} for ${r.marketplaces} marketplaces`);
  };
