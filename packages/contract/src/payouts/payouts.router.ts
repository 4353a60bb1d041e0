import { router } from '../trpc.js';
import { getPayouts } from './procedures/get-payouts.js';
import { startPayoutSessionProcedure } from './procedures/start-payout-session.js';

/** /v1/me/payouts… (seller payout setup). */
export const myPayoutsRouter = router({ get: getPayouts, startSession: startPayoutSessionProcedure });
