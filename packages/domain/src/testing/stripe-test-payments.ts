/**
 * The Stripe test server's payments (stripe-test-server.ts): PaymentIntents (create, retrieve with
 * `latest_charge.balance_transaction` expanded, cancel, confirm with Stripe's test cards), charges
 * settled in the platform's currencies (others converted), and refunds (made and listed).
 */
import { randomBytes } from 'node:crypto';
import { invalid, list, missing, newId, StripeFailure, type Emit, type Obj, type StripeRoutes, type StripeState } from './stripe-test-state.js';

export function stripePayments(s: StripeState, emit: Emit): StripeRoutes {
  const { intents, charges, balanceTransactions, refunds, livemode, settles, rates } = s;
  /** A charge's balance transaction: in its own currency when the platform settles in it, else converted to the default currency. */
  const settle = (amount: number, currency: string): Obj => {
    const converted = !settles.includes(currency);
    const rate = converted ? rates[currency] : 1;
    if (rate === undefined) throw new Error(`stripe test server: no rate for ${currency}`);
    const bt: Obj = { id: newId('txn'), object: 'balance_transaction', amount: amount * rate, currency: converted ? settles[0] : currency, exchange_rate: converted ? rate : null, type: 'charge' };
    balanceTransactions.set(bt.id as string, bt);
    return bt;
  };

  const intent = (id: string) => intents.get(id) ?? missingIntent(id);
  /** A PaymentIntent moves by replacing it with its next version (as Stripe's API returns a new object per change). */
  const nextVersion = (pi: Obj, changes: Obj): Obj => {
    const next = { ...pi, ...changes };
    intents.set(pi.id as string, next);
    return next;
  };
  const missingIntent = (id: string): never => {
    throw missing('payment_intent', id);
  };
  const unexpectedState = (pi: Obj, action: string) =>
    invalid(`You cannot ${action} this PaymentIntent because it has a status of ${String(pi.status)}.`, { code: 'payment_intent_unexpected_state', payment_intent: pi });


  /** `expand[]=latest_charge` and `expand[]=latest_charge.balance_transaction`, the expansions the adapter asks for */
  const expanded = (pi: Obj, expand: unknown): Obj => {
    // the SDK sends arrays as `expand[0]=…`
    const paths = expand === undefined ? [] : typeof expand === 'object' && expand !== null ? Object.values(expand).map(String) : [String(expand)];
    for (const p of paths) if (p !== 'latest_charge' && p !== 'latest_charge.balance_transaction') throw invalid(`This property cannot be expanded (${p}).`, { param: 'expand' });
    if (!paths.length || typeof pi.latest_charge !== 'string') return pi;
    const charge = { ...charges.get(pi.latest_charge)! };
    if (paths.includes('latest_charge.balance_transaction')) charge.balance_transaction = balanceTransactions.get(charge.balance_transaction as string);
    return { ...pi, latest_charge: charge };
  };

  function confirm(pi: Obj, form: Obj): Obj {
    if (pi.status === 'succeeded' || pi.status === 'canceled') throw unexpectedState(pi, 'confirm');
    if ((pi.automatic_payment_methods as Obj).enabled && !form.return_url) {
      throw invalid('This PaymentIntent is configured to accept payment methods enabled in your Dashboard, some of which may require a full page redirect to succeed. Pass a return_url.', { param: 'return_url' });
    }
    const method = form.payment_method;
    if (method === 'pm_card_visa_chargeDeclined' || method === 'pm_card_chargeDeclined') {
      const error = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
      const declined = nextVersion(pi, { status: 'requires_payment_method', last_payment_error: error });
      emit('payment_intent.payment_failed', declined);
      throw new StripeFailure(402, { ...error, payment_intent: declined });
    }
    if (method !== 'pm_card_visa') throw invalid(`No such PaymentMethod: '${String(method)}'`, { code: 'resource_missing', param: 'payment_method' });
    const charge: Obj = {
      id: newId('ch'),
      object: 'charge',
      amount: pi.amount,
      amount_refunded: 0,
      refunded: false,
      currency: pi.currency,
      balance_transaction: settle(pi.amount as number, pi.currency as string).id,
      payment_intent: pi.id,
      metadata: pi.metadata,
      transfer_group: pi.transfer_group,
      status: 'succeeded',
    };
    charges.set(charge.id as string, charge);
    const paid = nextVersion(pi, { status: 'succeeded', amount_received: pi.amount, latest_charge: charge.id, last_payment_error: null, payment_method: method });
    emit('payment_intent.succeeded', paid);
    return paid;
  }

  function refund(form: Obj): Obj {
    const pi = intent(String(form.payment_intent ?? ''));
    const charge = charges.get(String(pi.latest_charge));
    if (pi.status !== 'succeeded' || !charge) throw invalid(`This PaymentIntent (${String(pi.id)}) does not have a successful charge to refund.`, { code: 'charge_not_refundable' });
    const left = (charge.amount as number) - (charge.amount_refunded as number);
    if (left === 0) throw invalid(`Charge ${String(charge.id)} has already been refunded.`, { code: 'charge_already_refunded' });
    const amount = form.amount === undefined ? left : Number(form.amount);
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > left) throw invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left}).`, { param: 'amount' });
    Object.assign(charge, { amount_refunded: (charge.amount_refunded as number) + amount, refunded: (charge.amount_refunded as number) + amount === charge.amount });
    emit('charge.refunded', charge);
    const made: Obj = { id: newId('re'), object: 'refund', amount, charge: charge.id, payment_intent: pi.id, currency: pi.currency, metadata: form.metadata ?? {}, status: 'succeeded', created: Math.floor(Date.now() / 1000) };
    refunds.push(made);
    return made;
  }

  return (method, path, form) => {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/payment_intents') {
      const amount = Number(form.amount);
      if (!Number.isSafeInteger(amount) || amount < 1) throw invalid('Amount must be at least 1.', { code: 'amount_too_small', param: 'amount' });
      if (typeof form.currency !== 'string' || !/^[a-z]{3}$/.test(form.currency)) throw invalid(`Invalid currency: ${String(form.currency)}.`, { param: 'currency' });
      const id = newId('pi');
      const pi: Obj = {
        id,
        object: 'payment_intent',
        amount,
        amount_received: 0,
        currency: form.currency,
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
        automatic_payment_methods: { enabled: (form.automatic_payment_methods as Obj | undefined)?.enabled === 'true', allow_redirects: 'always' },
        metadata: form.metadata ?? {},
        transfer_group: form.transfer_group ?? null,
        latest_charge: null,
        last_payment_error: null,
        cancellation_reason: null,
        created: Math.floor(Date.now() / 1000),
        livemode,
      };
      intents.set(id, pi);
      return pi;
    }
    if (method === 'GET' && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) return expanded(intent(m[1]!), form.expand);
    if (method === 'POST' && (m = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path))) {
      const pi = intent(m[1]!);
      if (pi.status === 'succeeded' || pi.status === 'canceled' || pi.status === 'processing') throw unexpectedState(pi, 'cancel');
      const canceled = nextVersion(pi, { status: 'canceled', cancellation_reason: form.cancellation_reason ?? 'requested_by_customer' });
      emit('payment_intent.canceled', canceled);
      return canceled;
    }
    if (method === 'POST' && (m = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path))) return confirm(intent(m[1]!), form);
    if (method === 'POST' && path === '/v1/refunds') return refund(form);
    if (method === 'GET' && path === '/v1/refunds') return list('/v1/refunds', refunds.filter((r) => form.payment_intent === undefined || r.payment_intent === form.payment_intent));
    return undefined;
  };
}
