import { PayoutAccountSchema, type PayoutAccount } from '@hm/db/entities';
import type { UserCommandContext } from '../../core/context.js';
import { ConflictError, DomainError } from '../../core/errors.js';
import { PaymentError } from '../../core/ports/payments.js';
import { insertPayoutAccount } from '../payout-accounts.queries.js';

/** GET /v1/me/payouts: the seller's payout setup as the provider's last `account.updated` said (`none` before any). */
export async function payoutSetup(ctx: UserCommandContext): Promise<{ status: PayoutAccount['status']; due: string[] }> {
  const account = await ctx.em.findOne(PayoutAccountSchema, { userId: ctx.user.id });
  return { status: account?.status ?? 'none', due: account?.due ?? [] };
}

export interface SessionInput {
  country: string;
  business_type?: 'individual' | 'company';
}

/**
 * POST /v1/me/payouts/session: the seller's connected account (made on the first call, with the
 * country and business type given then; later calls keep the account's) and a session for the
 * provider's embedded onboarding component. The account row is written first and the provider's
 * account made under its id as idempotency key, so two first calls at once make one account.
 */
export async function startPayoutSession(ctx: UserCommandContext, input: SessionInput): Promise<{ clientSecret: string }> {
  await insertPayoutAccount(ctx.em, { userId: ctx.user.id, provider: ctx.payments.name, country: input.country, businessType: input.business_type ?? 'individual', now: ctx.clock.now() });
  const account = await ctx.em.findOneOrFail(PayoutAccountSchema, { userId: ctx.user.id }, { refresh: true });
  if (account.provider !== ctx.payments.name) throw new ConflictError(`Your payout account is with the payment provider "${account.provider}", which this deployment no longer uses.`);
  try {
    if (!account.providerAccountId) {
      const { providerId } = await ctx.payments.createAccount({ id: account.id, marketplaceId: ctx.marketplace.id, userId: ctx.user.id, country: account.country, businessType: account.businessType, email: ctx.user.email, serviceAgreement: ctx.marketplace.payoutServiceAgreement });
      account.providerAccountId = providerId;
      await ctx.em.nativeUpdate(PayoutAccountSchema, { id: account.id }, { providerAccountId: providerId, updatedAt: ctx.clock.now() });
    }
    return await ctx.payments.createAccountSession(account.providerAccountId);
  } catch (e) {
    if (!(e instanceof PaymentError)) throw e;
    if (e.retryable) throw new DomainError('service_unavailable', 'Payout setup is unavailable right now. Try again in a moment.', { retryAfterSeconds: 5 });
    throw new ConflictError(`The payment provider refused to start payout setup: ${e.message}.`);
  }
}
