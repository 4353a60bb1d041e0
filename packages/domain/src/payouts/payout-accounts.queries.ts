import type { EntityManager } from '@hm/db/orm';
import type { PayoutAccount } from '@hm/db/entities';
import { uuidv7 } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';

/** Makes the seller's payout account unless they have one (two first calls at once: one row, the other waits on the key and finds it). */
export async function insertPayoutAccount(em: EntityManager, a: { userId: string; provider: string; country: string; businessType: string; now: Date }): Promise<void> {
  const sql = tenantSql(em);
  await sql`insert into payout_accounts (id, marketplace_id, user_id, provider, country, business_type, status, due, created_at, updated_at)
            values (${uuidv7()}, ${sql.marketplace}, ${a.userId}, ${a.provider}, ${a.country}, ${a.businessType}, 'none', '[]', ${a.now}, ${a.now})
            on conflict on constraint payout_accounts_user_unique do nothing`;
}

/**
 * The seller's payout setup status mirrors the provider's account (`account.updated`): it is not a
 * state machine of ours — any status may follow any other, as the provider decides — so this is the
 * one place that writes it (the status-writes test names this file).
 */
export function mirrorProviderStatus(account: PayoutAccount, s: { status: PayoutAccount['status']; due: string[]; eventAt: Date; now: Date }): void {
  Object.assign(account, { status: s.status, due: s.due, statusEventAt: s.eventAt, updatedAt: s.now });
}
