import { z } from 'zod';
import { sessionProcedure } from '../../trpc.js';
import { ZCountryCode } from '@hm/domain/core';
import { startPayoutSession } from '@hm/domain/payouts';
import { TAG } from './_shared.js';

export const startPayoutSessionProcedure = sessionProcedure
  .meta({
    auth: 'session',
    problems: [409],
    requestExample: { country: 'SE', business_type: 'individual' },
    openapi: {
      operationId: 'createPayoutSession',
      method: 'POST',
      path: '/me/payouts/session',
      tags: [TAG],
      summary: 'Start or continue payout setup',
      description:
        "Returns a `client_secret` for the payment provider's embedded onboarding component (Stripe: an AccountSession with `account_onboarding`; configure the component to collect only currently due fields and omit future requirements). The first call makes your account at the provider with `country` and `business_type`; later calls continue it (their `country` and `business_type` are not used). 503 while the provider is unavailable.",
    },
  })
  .input(
    z.strictObject({
      country: ZCountryCode.meta({ description: 'ISO 3166-1 alpha-2; used the first time.' }),
      business_type: z.enum(['individual', 'company']).optional().meta({ description: '`individual` (default) or `company`; used the first time.', default: 'individual' }),
    }),
  )
  .output(z.object({ client_secret: z.string() }).meta({ id: 'PayoutSession' }))
  .mutation(async ({ ctx, input }) => ({ client_secret: (await startPayoutSession(ctx, input)).clientSecret }));
