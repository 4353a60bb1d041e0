import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PaymentError, type AccountChangeForTest, type AccountRequest, type PaymentEvent, type TransferRequest, type TransferReversalRequest } from '../../core/ports/payments.js';

/**
 * The sandbox's Connect half: connected accounts and transfers on disk beside the payments (see
 * local-payments.ts). An account is one JSON file shaped like Stripe's Account object, replaced
 * whole on each change (written aside, then renamed); a transfer is a file created once by `link`
 * (a second request with the same id finds it and gets the same transfer back).
 */
export type Obj = Record<string, unknown>;

const ACCOUNT_ID = /^acct_[0-9a-f]{24}$/;

/** What a fresh account still needs: Stripe's names for an individual's or a company's first requirements. */
export const FIRST_REQUIREMENTS = {
  individual: ['business_profile.url', 'external_account', 'individual.dob.day', 'individual.first_name', 'individual.last_name', 'tos_acceptance.date'],
  company: ['business_profile.url', 'company.name', 'company.tax_id', 'external_account', 'representative.first_name', 'tos_acceptance.date'],
} as const;

/**
 * Writes a file whole or not at all: aside, then into place — `exclusive`: linked, only if it does
 * not exist yet (false when another process was first); else renamed over the old one.
 */
export async function writeWhole(root: string, file: string, body: object, exclusive: boolean): Promise<boolean> {
  const tmp = path.join(root, `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(tmp, JSON.stringify(body), { mode: 0o600 });
    if (exclusive) await link(tmp, file);
    else await rename(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new PaymentError(`local payments ${root}: ${(e as Error).message}`, 'unavailable');
  } finally {
    await unlink(tmp).catch(() => {});
  }
}

export function connectStore(root: string, derive: (s: string) => string) {
  const accountsDir = path.join(root, 'accounts');
  const transfersDir = path.join(root, 'transfers');
  const accountFile = (id: string) => {
    if (!ACCOUNT_ID.test(id)) throw new PaymentError(`no such account: ${id}`, 'refused');
    return path.join(accountsDir, `${id}.json`);
  };

  async function readAccount(id: string): Promise<Obj> {
    try {
      return JSON.parse(await readFile(accountFile(id), 'utf8')) as Obj;
    } catch (e) {
      if (e instanceof PaymentError) throw e;
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new PaymentError(`no such account: ${id}`, 'refused');
      throw new PaymentError(`local payments ${root}: ${(e as Error).message}`, 'unavailable');
    }
  }

  const put = (file: string, body: Obj, exclusive: boolean) => writeWhole(root, file, body, exclusive);

  const accountEvent = (account: Obj): PaymentEvent => {
    const metadata = account.metadata as Record<string, string>;
    return {
      id: `evt_${derive(`account:${String(account.id)}:${String(account.version)}`)}`,
      provider: 'local',
      type: 'account.updated',
      marketplaceId: metadata.marketplace_id,
      connectedAccount: String(account.id),
      createdAt: new Date(String(account.updated_at)),
      data: Object.fromEntries(Object.entries(account).filter(([k]) => k !== 'version' && k !== 'updated_at')),
    };
  };

  return {
    async createAccount(req: AccountRequest): Promise<{ providerId: string }> {
      if (!/^[A-Z]{2}$/.test(req.country)) throw new PaymentError(`country must be an ISO 3166-1 alpha-2 code, got ${req.country}`, 'refused');
      const id = `acct_${derive(`account:${req.id}`)}`;
      const now = new Date().toISOString();
      const account: Obj = {
        id,
        object: 'account',
        country: req.country,
        business_type: req.businessType,
        email: req.email ?? null,
        metadata: { marketplace_id: req.marketplaceId, user_id: req.userId, payout_account_id: req.id },
        controller: { fees: { payer: 'application' }, losses: { payments: 'application' }, requirement_collection: 'application', stripe_dashboard: { type: 'none' } },
        capabilities: { transfers: 'inactive' },
        details_submitted: false,
        payouts_enabled: false,
        requirements: { currently_due: [...FIRST_REQUIREMENTS[req.businessType]], eventually_due: [...FIRST_REQUIREMENTS[req.businessType]], past_due: [], pending_verification: [], disabled_reason: 'requirements.past_due' },
        version: 0,
        updated_at: now,
      };
      if (!(await put(accountFile(id), account, true))) {
        const earlier = await readAccount(id);
        const meta = earlier.metadata as Record<string, string>;
        if (meta.marketplace_id !== req.marketplaceId || meta.user_id !== req.userId) throw new PaymentError(`account ${req.id} was already made for someone else`, 'refused');
      }
      return { providerId: id };
    },

    async createAccountSession(accountId: string): Promise<{ clientSecret: string }> {
      await readAccount(accountId);
      return { clientSecret: `accs_secret__${derive(`session:${accountId}`)}${randomBytes(12).toString('hex')}` };
    },

    /** `payment`: the order's, when it had one (else the transfer comes from the platform's balance) */
    async transfer(req: TransferRequest, payment?: { status: string; amount: number; currency: string; chargeId?: string }): Promise<{ providerId: string }> {
      if (!Number.isSafeInteger(req.amount) || req.amount < 1) throw new PaymentError(`amount must be a positive integer of minor units, got ${req.amount}`, 'refused');
      const id = `tr_${derive(`transfer:${req.id}`)}`;
      const file = path.join(transfersDir, `${id}.json`);
      const existing = await readFile(file, 'utf8').then((t) => JSON.parse(t) as Obj, () => undefined);
      const same = (t: Obj) => t.amount === req.amount && t.destination === req.destination && t.currency === req.currency.toLowerCase();
      if (existing) {
        if (!same(existing)) throw new PaymentError(`transfer ${req.id} was already made with other parameters`, 'refused');
        return { providerId: id };
      }
      const account = await readAccount(req.destination);
      if ((account.capabilities as Obj).transfers !== 'active') throw new PaymentError(`account ${req.destination} cannot receive transfers yet (its transfers capability is not active)`, 'refused', 'insufficient_capabilities_for_transfer', 'account_not_ready');
      if (payment) {
        if (payment.status !== 'succeeded' || !payment.chargeId) throw new PaymentError(`payment ${req.paymentId} has no succeeded charge to transfer from`, 'refused');
        if (payment.currency !== req.currency) throw new PaymentError(`the transfer's currency ${req.currency} is not the charge's ${payment.currency}`, 'refused', undefined, 'currency_not_accepted');
        if (req.amount > payment.amount) throw new PaymentError(`transfer of ${req.amount} exceeds the charge of ${payment.amount}`, 'refused');
      }
      const transfer: Obj = {
        id,
        object: 'transfer',
        amount: req.amount,
        currency: req.currency.toLowerCase(),
        destination: req.destination,
        transfer_group: req.orderId,
        source_transaction: payment?.chargeId ?? null,
        metadata: { marketplace_id: req.marketplaceId, order_id: req.orderId },
        created: Math.floor(Date.now() / 1000),
      };
      if (!(await put(file, transfer, true))) {
        const raced = JSON.parse(await readFile(file, 'utf8')) as Obj;
        if (!same(raced)) throw new PaymentError(`transfer ${req.id} was already made with other parameters`, 'refused');
      }
      return { providerId: id };
    },

    /**
     * A reversal of a transfer: one file per reversal beside the transfer, numbered and created with
     * `link` (two processes cannot both add the same number; the loser reads again and decides again),
     * so the reversals never add up to more than the transfer.
     */
    async reverseTransfer(req: TransferReversalRequest): Promise<{ providerId: string }> {
      if (!Number.isSafeInteger(req.amount) || req.amount < 1) throw new PaymentError(`amount must be a positive integer of minor units, got ${req.amount}`, 'refused');
      if (!/^tr_[0-9a-f]{24}$/.test(req.transferId)) throw new PaymentError(`no such transfer: ${req.transferId}`, 'refused', 'resource_missing');
      const transfer = await readFile(path.join(transfersDir, `${req.transferId}.json`), 'utf8').then((t) => JSON.parse(t) as Obj, () => undefined);
      if (!transfer) throw new PaymentError(`no such transfer: ${req.transferId}`, 'refused', 'resource_missing');
      const id = `trr_${derive(`reversal:${req.id}`)}`;
      const dir = path.join(transfersDir, `${req.transferId}.reversals`);
      for (;;) {
        const names = await readdir(dir).then((n) => n.filter((f) => /^\d{3}\.json$/.test(f)).sort(), () => [] as string[]);
        const reversals = await Promise.all(names.map(async (n) => JSON.parse(await readFile(path.join(dir, n), 'utf8')) as Obj));
        const earlier = reversals.find((r) => r.id === id);
        if (earlier) {
          if (earlier.amount !== req.amount) throw new PaymentError(`reversal ${req.id} was already made for another amount`, 'refused', 'idempotency_error');
          return { providerId: id };
        }
        const left = Number(transfer.amount) - reversals.reduce((sum, r) => sum + Number(r.amount), 0);
        if (req.amount > left) throw new PaymentError(`reversal of ${req.amount} is not possible: ${left} of transfer ${req.transferId} is left`, 'refused');
        const reversal: Obj = { id, object: 'transfer_reversal', amount: req.amount, currency: transfer.currency, transfer: req.transferId, metadata: { marketplace_id: req.marketplaceId, order_id: req.orderId }, created: Math.floor(Date.now() / 1000) };
        if (await put(path.join(dir, `${String(names.length).padStart(3, '0')}.json`), reversal, true)) return { providerId: id };
      }
    },

    async updateAccountForTest(accountId: string, change: AccountChangeForTest): Promise<PaymentEvent[]> {
      const account = await readAccount(accountId);
      const due = change.status === 'action_required' ? (change.due.length ? change.due : ['external_account']) : [];
      const ready = change.status === 'ready';
      const next: Obj = {
        ...account,
        details_submitted: true,
        payouts_enabled: ready,
        capabilities: { transfers: ready ? 'active' : change.status === 'pending' ? 'pending' : 'inactive' },
        requirements: {
          currently_due: due,
          eventually_due: due,
          past_due: [],
          pending_verification: change.status === 'pending' ? ['individual.verification.document'] : [],
          disabled_reason: ready ? null : change.status === 'pending' ? 'requirements.pending_verification' : 'requirements.past_due',
        },
        version: Number(account.version) + 1,
        updated_at: new Date().toISOString(),
      };
      await put(accountFile(accountId), next, false);
      return [accountEvent(next)];
    },
  };
}
