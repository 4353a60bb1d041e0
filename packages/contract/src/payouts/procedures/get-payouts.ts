import { z } from 'zod';
import { PAYOUT_SETUP_STATUSES } from '@hm/db/entities';
import { sessionProcedure } from '../../trpc.js';
import { payoutSetup } from '@hm/domain/payouts';
import { TAG } from './_shared.js';

export const ZPayoutSetup = z
  .object({
    status: z.enum(PAYOUT_SETUP_STATUSES).meta({ description: '`none` (nothing started), `action_required` (`due` lists what is still needed), `pending` (the provider is checking), `ready` (you will be paid).' }),
    due: z.array(z.string()).meta({ description: "The payment provider's names of what is currently due or past due (action_required)." }),
  })
  .meta({ id: 'PayoutSetup' });

export const getPayouts = sessionProcedure
  .meta({
    auth: 'session',
    openapi: {
      operationId: 'getMyPayoutSetup',
      method: 'GET',
      path: '/me/payouts',
      tags: [TAG],
      summary: 'Your payout setup',
      description: "Follows the payment provider's account updates (never asked of the provider per request): `ready` once sales can be paid to you.",
    },
  })
  .input(z.object({}))
  .output(ZPayoutSetup)
  .query(({ ctx }) => payoutSetup(ctx));
