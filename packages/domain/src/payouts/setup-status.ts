import type { PayoutSetupStatus } from '@hm/db/entities';

/** The parts of a provider's Account object (Stripe's shape; the sandbox emits the same) that decide payout setup. */
interface AccountObject {
  details_submitted?: boolean;
  payouts_enabled?: boolean;
  capabilities?: { transfers?: string } | null;
  requirements?: { currently_due?: string[] | null; past_due?: string[] | null; pending_verification?: string[] | null } | null;
}

/**
 * Payout setup status from an `account.updated` event's account (spec: Payout setup status):
 * anything currently due or past due → `action_required` with those names in `due` (but `none`
 * while the seller has submitted nothing yet: nothing started); pending verification → `pending`;
 * transfers active and payouts enabled → `ready`; otherwise the provider is still checking → `pending`.
 */
export function setupStatusOf(account: AccountObject): { status: PayoutSetupStatus; due: string[] } {
  const r = account.requirements ?? {};
  const due = [...new Set([...(r.past_due ?? []), ...(r.currently_due ?? [])])].sort();
  if (due.length) return account.details_submitted ? { status: 'action_required', due } : { status: 'none', due: [] };
  if ((r.pending_verification ?? []).length) return { status: 'pending', due: [] };
  if (account.capabilities?.transfers === 'active' && account.payouts_enabled) return { status: 'ready', due: [] };
  return { status: 'pending', due: [] };
}
