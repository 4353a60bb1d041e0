import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { processImage as processImageCommand, type ImageDeps } from '@hm/domain/images';

const ZPayload = z.object({ marketplace_id: z.uuid(), image_id: z.uuid() });

/** Makes a listing photo's sizes (thumb, medium, large) and marks it ready or failed. */
export const processImage =
  (deps: ImageDeps): Task =>
  async (payload, helpers) => {
    const { marketplace_id, image_id } = ZPayload.parse(payload);
    const result = await processImageCommand(deps, { marketplaceId: marketplace_id, imageId: image_id });
    helpers.logger.info(`image ${image_id}: ${result}`);
  };
