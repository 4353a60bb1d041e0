import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sameSecret } from '../../core/secret-token.js';
import { PaymentError, type PaymentEvent, type PaymentRequest, type Payments } from '../../core/ports/payments.js';
import { connectStore, writeWhole } from './local-connect.js';

/**
 * The offline sandbox: a payment provider on disk, under DATA_DIR/payments/<mode>, so the API, the
 * worker and the console (separate processes) share it and it survives restarts, like the local
 * mailbox. Each payment is a folder holding an append-only log, one file per change (`000.json`
 * created, then attempts, success, cancellation, refunds). A change is appended by creating the next
 * numbered file with `link` (atomic, fails if it exists): two processes racing on one payment
 * cannot both append the same step; the loser re-reads and decides again. Ids derive from our ids, so
 * the same request makes the same payment and refund (idempotency without a lock), and event ids
 * from the log entry, so an event recorded twice is stored once.
 */
export function localPayments(root: string): Payments {
  const connect = connectStore(root, derive);
  return {
    name: 'local',

    async createPayment(req) {
      if (!Number.isSafeInteger(req.amount) || req.amount < 1) throw new PaymentError(`amount must be a positive integer of minor units, got ${req.amount}`, 'refused');
      if (!/^[A-Z]{3}$/.test(req.currency)) throw new PaymentError(`currency must be an ISO 4217 code in upper case, got ${req.currency}`, 'refused');
      const id = `pi_${derive(`payment:${req.id}`)}`;
      const created: Created = { type: 'created', request: { ...req }, clientSecret: `${id}_secret_${randomBytes(12).toString('hex')}`, at: new Date().toISOString() };
      const first = (await append(root, id, 0, created)) ? created : ((await read(root, id))[0] as Created);
      const same = first.request.amount === req.amount && first.request.currency === req.currency && first.request.orderId === req.orderId && first.request.marketplaceId === req.marketplaceId;
      if (!same) throw new PaymentError(`payment ${req.id} was already started with other parameters`, 'refused');
      return { providerId: id, clientSecret: first.clientSecret };
    },

    async cancelPayment(paymentId) {
      await change(root, paymentId, (state) => {
        // a completed payment is left alone (refunds undo it); a canceled one stays canceled
        if (state.status === 'succeeded' || state.status === 'canceled') return undefined;
        return { type: 'canceled', at: new Date().toISOString() };
      });
    },

    async refund(req) {
      const refundId = `re_${derive(`refund:${req.id}`)}`;
      await change(root, req.paymentId, (state) => {
        const earlier = state.refunds.find((r) => r.refundId === refundId);
        if (earlier) {
          if (req.amount !== undefined && earlier.amount !== req.amount) throw new PaymentError(`refund ${req.id} was already made for another amount`, 'refused');
          return undefined;
        }
        if (state.status !== 'succeeded') throw new PaymentError(`payment ${req.paymentId} is ${state.status}: only a succeeded payment can be refunded`, 'unexpected_state');
        const left = state.amount - state.refunded;
        const amount = req.amount ?? left;
        if (!Number.isSafeInteger(amount) || amount < 1 || amount > left) throw new PaymentError(`refund of ${amount} is not possible: ${left} of ${state.amount} is left to refund`, 'refused');
        return { type: 'refunded', refundId, amount, at: new Date().toISOString() };
      });
      return { providerId: refundId };
    },

    async confirmForTest(clientSecret, outcome, marketplaceId) {
      const id = /^(pi_[0-9a-f]+)_secret_[0-9a-f]+$/.exec(clientSecret)?.[1];
      const log = id ? await read(root, id).catch(() => undefined) : undefined;
      const first = log?.[0] as Created | undefined;
      if (!first || !sameSecret(clientSecret, first.clientSecret) || first.request.marketplaceId !== marketplaceId) return null;
      const { entry, seq, state } = await change(root, id!, (s) => {
        if (s.status === 'succeeded' || s.status === 'canceled') throw new PaymentError(`payment ${id} is already ${s.status}`, 'unexpected_state');
        return outcome === 'succeeded' ? { type: 'succeeded', chargeId: `ch_${derive(`charge:${id}`)}`, at: new Date().toISOString() } : { type: 'failed', at: new Date().toISOString() };
      });
      return [toEvent(id!, seq, entry!, state)];
    },

    createAccount: (req) => connect.createAccount(req),
    createAccountSession: (accountId) => connect.createAccountSession(accountId),
    async transfer(req) {
      const state = req.paymentId ? fold(await read(root, req.paymentId)) : undefined;
      return connect.transfer(req, state && { status: state.status, amount: state.amount, currency: state.created.request.currency, chargeId: state.chargeId });
    },
    reverseTransfer: (req) => connect.reverseTransfer(req),
    updateAccountForTest: (accountId, change) => connect.updateAccountForTest(accountId, change),

    async disputeForTest(paymentId, dispute) {
      const { entry, seq, state } = await change(root, paymentId, (s) => {
        if (s.status !== 'succeeded') throw new PaymentError(`payment ${paymentId} is ${s.status}: only a succeeded payment can be disputed`, 'unexpected_state');
        if (s.dispute && CLOSED_DISPUTE.has(s.dispute.status)) throw new PaymentError(`the dispute of payment ${paymentId} is closed (${s.dispute.status})`, 'unexpected_state');
        return { type: 'disputed', status: dispute.status, reason: dispute.reason, at: new Date().toISOString() };
      });
      const first = !state.dispute || state.dispute.seq === seq;
      const type = CLOSED_DISPUTE.has(dispute.status) ? 'charge.dispute.closed' : first ? 'charge.dispute.created' : 'charge.dispute.updated';
      const { request } = state.created;
      return [
        {
          id: `evt_${derive(`event:${paymentId}:${seq}`)}`,
          provider: 'local',
          type,
          paymentId,
          createdAt: new Date(entry!.at),
          // Stripe's dispute carries no metadata of ours: its marketplace and order come from the payment's earlier events
          data: { id: `dp_${derive(`dispute:${paymentId}`)}`, object: 'dispute', amount: request.amount, currency: request.currency.toLowerCase(), charge: state.chargeId, payment_intent: paymentId, reason: dispute.reason, status: dispute.status },
        },
      ];
    },

    async refundForTest(paymentId, amount) {
      const { entry, seq, state } = await change(root, paymentId, (s) => {
        if (s.status !== 'succeeded') throw new PaymentError(`payment ${paymentId} is ${s.status}: only a succeeded payment can be refunded`, 'unexpected_state');
        const left = s.amount - s.refunded;
        if (!Number.isSafeInteger(amount) || amount < 1 || amount > left) throw new PaymentError(`refund of ${amount} is not possible: ${left} of ${s.amount} is left to refund`, 'refused');
        return { type: 'refunded', refundId: `re_${derive(`outside:${paymentId}:${s.refunds.length}`)}`, amount, at: new Date().toISOString() };
      });
      const { request } = state.created;
      return [
        {
          id: `evt_${derive(`event:${paymentId}:${seq}`)}`,
          provider: 'local',
          type: 'charge.refunded',
          paymentId,
          marketplaceId: request.marketplaceId,
          orderId: request.orderId,
          createdAt: new Date(entry!.at),
          data: { id: state.chargeId, object: 'charge', amount: request.amount, amount_refunded: state.refunded, refunded: state.refunded === request.amount, currency: request.currency.toLowerCase(), payment_intent: paymentId, metadata: { marketplace_id: request.marketplaceId, order_id: request.orderId } },
        },
      ];
    },
  };
}

/** Stripe's dispute statuses after which a dispute no longer moves. */
const CLOSED_DISPUTE = new Set(['won', 'lost', 'warning_closed']);

interface Created {
  type: 'created';
  request: PaymentRequest;
  clientSecret: string;
  at: string;
}
type Entry = Created | { type: 'failed'; at: string } | { type: 'succeeded'; chargeId: string; at: string } | { type: 'canceled'; at: string } | { type: 'refunded'; refundId: string; amount: number; at: string }
  | { type: 'disputed'; status: string; reason: string; at: string };

interface State {
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  amount: number;
  refunded: number;
  refunds: { refundId: string; amount: number }[];
  chargeId?: string;
  /** the latest dispute entry, and the log position of the first (its `created` event) */
  dispute?: { status: string; seq: number };
  created: Created;
}

/** The payment as its log says: succeeded or canceled by the last such entry (an entry can only follow a state that allowed it), refunds summed. */
function fold(log: Entry[]): State {
  const created = log[0] as Created;
  const final = log.findLast((e) => e.type === 'succeeded' || e.type === 'canceled');
  const refunds = log.flatMap((e) => (e.type === 'refunded' ? [{ refundId: e.refundId, amount: e.amount }] : []));
  return {
    status: final?.type === 'succeeded' || final?.type === 'canceled' ? final.type : 'requires_payment_method',
    amount: created.request.amount,
    refunded: refunds.reduce((sum, r) => sum + r.amount, 0),
    refunds,
    chargeId: final?.type === 'succeeded' ? final.chargeId : undefined,
    ...(log.some((e) => e.type === 'disputed') && { dispute: { status: (log.findLast((e) => e.type === 'disputed') as { status: string }).status, seq: log.findIndex((e) => e.type === 'disputed') } }),
    created,
  };
}

/** Appends what `decide` returns for the current state (nothing when it returns undefined); retries when another process appended first. */
async function change(root: string, paymentId: string, decide: (state: State) => Entry | undefined): Promise<{ entry?: Entry; seq: number; state: State }> {
  for (;;) {
    const log = await read(root, paymentId);
    const entry = decide(fold(log));
    if (!entry) return { seq: log.length - 1, state: fold(log) };
    if (await append(root, paymentId, log.length, entry)) return { entry, seq: log.length, state: fold([...log, entry]) };
  }
}

const SAFE_ID = /^(pi|re)_[0-9a-f]{24}$/;

async function read(root: string, paymentId: string): Promise<Entry[]> {
  if (!SAFE_ID.test(paymentId)) throw new PaymentError(`no such payment: ${paymentId}`, 'refused');
  const dir = path.join(root, paymentId);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => /^\d{3}\.json$/.test(n)).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new PaymentError(`no such payment: ${paymentId}`, 'refused');
    throw new PaymentError(`local payments ${root}: ${(e as Error).message}`, 'unavailable');
  }
  if (names.length === 0) throw new PaymentError(`no such payment: ${paymentId}`, 'refused');
  return Promise.all(names.map(async (n) => JSON.parse(await readFile(path.join(dir, n), 'utf8')) as Entry));
}

/** Creates entry `seq` whole or not at all (see writeWhole). False when another process was first. */
function append(root: string, paymentId: string, seq: number, entry: Entry): Promise<boolean> {
  return writeWhole(root, path.join(root, paymentId, `${String(seq).padStart(3, '0')}.json`), entry, true);
}

/** 24 hex characters (96 bits) from a string: the shape of a provider id, stable for the same input. */
function derive(input: string): string {
  return createHash('sha256').update(input).digest('hex').slice(0, 24);
}


/** The event the sandbox emits for a log entry, shaped like Stripe's (a PaymentIntent object with our metadata). */
function toEvent(paymentId: string, seq: number, entry: Entry, state: State): PaymentEvent {
  const { request } = state.created;
  const succeeded = entry.type === 'succeeded';
  return {
    id: `evt_${derive(`event:${paymentId}:${seq}`)}`,
    provider: 'local',
    type: succeeded ? 'payment_intent.succeeded' : 'payment_intent.payment_failed',
    paymentId,
    marketplaceId: request.marketplaceId,
    orderId: request.orderId,
    createdAt: new Date(entry.at),
    data: {
      id: paymentId,
      object: 'payment_intent',
      amount: request.amount,
      amount_received: succeeded ? request.amount : 0,
      currency: request.currency.toLowerCase(),
      status: succeeded ? 'succeeded' : 'requires_payment_method',
      latest_charge: state.chargeId ?? null,
      transfer_group: request.orderId,
      metadata: { marketplace_id: request.marketplaceId, order_id: request.orderId },
      last_payment_error: succeeded ? null : { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined (sandbox).' },
    },
  };
}
