import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { MikroORM } from '@hm/db/orm';
import type { Clock } from '@hm/domain/context';
import { applyPriceDrop as applyPriceDropCommand } from '@hm/domain/listings';

const ZPayload = z.object({ marketplace_id: z.uuid(), listing_id: z.uuid(), step: z.number().int().min(0), started_at: z.string() });

/** One scheduled price drop of a listing on sale; schedules the next step itself. */
export const applyPriceDrop =
  (deps: { orm: MikroORM; clock: Clock }): Task =>
  async (payload, helpers) => {
    const p = ZPayload.parse(payload);
    const result = await applyPriceDropCommand(deps, { marketplaceId: p.marketplace_id, listingId: p.listing_id, step: p.step, startedAt: p.started_at });
    helpers.logger.info(`price drop ${p.listing_id} step ${p.step}: ${result}`);
  };
