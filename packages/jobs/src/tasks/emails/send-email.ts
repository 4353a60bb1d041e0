import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { deliverEmail, type DeliveryDeps } from '@hm/domain/emails';

const ZPayload = z.object({ marketplace_id: z.uuid(), email_id: z.uuid() });

/** Sends one email from the outbox; retried with backoff on transient provider failures. */
export const sendEmail =
  (deps: DeliveryDeps): Task =>
  async (payload, helpers) => {
    const { marketplace_id, email_id } = ZPayload.parse(payload);
    const result = await deliverEmail(deps, { marketplaceId: marketplace_id, emailId: email_id }, { number: helpers.job.attempts, max: helpers.job.max_attempts });
    helpers.logger.info(`email ${email_id}: ${result}`);
  };
