import { router } from '../trpc.js';
import { listTestEmails } from '../emails/procedures/list-test-emails.js';
import { confirmTestPayment } from '../payments/procedures/confirm-test-payment.js';
import { advanceTimersProcedure } from './procedures.js';
import { disputeTestPayment, moveTestPayoutAccount, refundTestPayment } from '../payouts/procedures/test-helpers.js';

/** Stripe-style test helpers: test mode only (404 in live mode), under their own OpenAPI tag. */
export const testHelpersRouter = router({
  emails: router({ list: listTestEmails }),
  timers: router({ advance: advanceTimersProcedure }),
  payments: router({ confirm: confirmTestPayment, dispute: disputeTestPayment, refund: refundTestPayment }),
  payouts: router({ account: moveTestPayoutAccount }),
});
