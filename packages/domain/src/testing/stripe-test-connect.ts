/**
 * The Stripe test server's Connect (stripe-test-server.ts): the platform's own account, connected
 * accounts under Stripe's service-agreement rules, account sessions, and transfers (made, listed,
 * reversed).
 */
import { randomBytes } from 'node:crypto';
import { invalid, list, missingOf, newId, notConnect, type Emit, type Obj, type StripeRoutes, type StripeState } from './stripe-test-state.js';

export function stripeConnect(s: StripeState, emit: Emit): StripeRoutes {
  const { accounts, accountSessions, transfers, charges, balanceTransactions, livemode } = s;
  function createAccount(form: Obj): Obj {
    const controller = (form.controller ?? {}) as Obj;
    if (typeof form.country !== 'string' || !/^[A-Z]{2}$/.test(form.country)) throw invalid(`Country '${String(form.country)}' is unknown.`, { param: 'country' });
    if (form.business_type !== undefined && form.business_type !== 'individual' && form.business_type !== 'company') throw invalid('Invalid business_type.', { param: 'business_type' });
    // Stripe: a platform that collects requirements must also pay the fees, carry the losses and give no Stripe dashboard
    if (controller.requirement_collection === 'application') {
      const fees = (controller.fees as Obj | undefined)?.payer;
      const losses = (controller.losses as Obj | undefined)?.payments;
      const dashboard = (controller.stripe_dashboard as Obj | undefined)?.type;
      if (fees !== 'application' || losses !== 'application' || dashboard !== 'none') {
        throw invalid('When controller[requirement_collection] is application, controller[fees][payer] and controller[losses][payments] must be application and controller[stripe_dashboard][type] none.', { param: 'controller' });
      }
    }
    const capabilities = (form.capabilities ?? {}) as Record<string, Obj>;
    const requestedOf = (name: string) => capabilities[name]?.requested === 'true';
    const requested = requestedOf('transfers');
    // Stripe's service agreements: cross-border payouts only under `recipient`; `recipient` accounts take
    // no payments; `transfers` without `card_payments` under `full` only for platforms Stripe approved
    const agreement = ((form.tos_acceptance as Obj | undefined)?.service_agreement as string | undefined) ?? 'full';
    if (agreement !== 'full' && agreement !== 'recipient') throw invalid(`Invalid tos_acceptance[service_agreement]: must be one of full or recipient.`, { param: 'tos_acceptance[service_agreement]' });
    if (form.country !== s.platformAccount.country && agreement !== 'recipient') {
      throw invalid(`Connected accounts in ${String(form.country)} cannot be created by platforms in ${String(s.platformAccount.country)} under the full service agreement: use tos_acceptance[service_agreement]=recipient for cross-border payouts.`, { param: 'tos_acceptance[service_agreement]' });
    }
    if (agreement === 'recipient' && requestedOf('card_payments')) throw invalid('Accounts under the recipient service agreement cannot request the card_payments capability.', { param: 'capabilities[card_payments]' });
    if (agreement === 'full' && requested && !requestedOf('card_payments') && !s.platform.transfersOnlyApproved) {
      throw invalid('Requesting the transfers capability without card_payments under the full service agreement requires Stripe to approve your platform. Request card_payments too, or use the recipient service agreement.', { param: 'capabilities' });
    }
    const due = ['business_profile.url', 'external_account', 'tos_acceptance.date'];
    const account: Obj = {
      id: newId('acct'),
      object: 'account',
      country: form.country,
      business_type: form.business_type ?? null,
      email: form.email ?? null,
      metadata: form.metadata ?? {},
      controller: { ...controller, type: 'application', is_controller: true },
      capabilities: Object.fromEntries(Object.keys(capabilities).filter(requestedOf).map((name) => [name, 'inactive'])),
      tos_acceptance: { service_agreement: agreement },
      details_submitted: false,
      charges_enabled: false,
      payouts_enabled: false,
      requirements: { currently_due: due, eventually_due: due, past_due: [], pending_verification: [], disabled_reason: 'requirements.past_due' },
      created: Math.floor(Date.now() / 1000),
    };
    accounts.set(account.id as string, account);
    return account;
  }

  function createAccountSession(form: Obj): Obj {
    const account = accounts.get(String(form.account)) ?? missingOf('account', String(form.account));
    const components = (form.components ?? {}) as Record<string, Obj>;
    if (!Object.values(components).some((c) => c.enabled === 'true')) throw invalid('You must enable at least one component.', { param: 'components' });
    const session: Obj = {
      object: 'account_session',
      account: account.id,
      client_secret: `accs_secret__${randomBytes(24).toString('hex')}`,
      expires_at: Math.floor(Date.now() / 1000) + 1800,
      livemode,
      components: Object.fromEntries(Object.entries(components).map(([name, c]) => [name, { enabled: c.enabled === 'true', features: {} }])),
    };
    accountSessions.push(session);
    return session;
  }

  function createTransfer(form: Obj): Obj {
    const amount = Number(form.amount);
    if (!Number.isSafeInteger(amount) || amount < 1) throw invalid('Amount must be at least 1.', { param: 'amount' });
    const account = accounts.get(String(form.destination)) ?? missingOf('account', String(form.destination));
    if ((account.capabilities as Obj).transfers !== 'active') {
      throw invalid('Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments', { code: 'insufficient_capabilities_for_transfer', param: 'destination' });
    }
    const charge = form.source_transaction === undefined ? undefined : (charges.get(String(form.source_transaction)) ?? missingOf('charge', String(form.source_transaction)));
    const settled = charge && balanceTransactions.get(charge.balance_transaction as string)!;
    if (settled && settled.currency !== form.currency) throw invalid(`The currency of source_transaction's balance transaction (${String(settled.currency)}) must be the same as the transfer currency (${String(form.currency)}).`, { param: 'currency' });
    if (settled && amount > (settled.amount as number)) throw invalid('Transfer amount exceeds the source transaction.', { param: 'amount' });
    const transfer: Obj = {
      id: newId('tr'),
      object: 'transfer',
      amount,
      currency: form.currency,
      destination: account.id,
      transfer_group: form.transfer_group ?? null,
      source_transaction: charge?.id ?? null,
      metadata: form.metadata ?? {},
      amount_reversed: 0,
      reversed: false,
      reversals: { object: 'list', data: [], has_more: false },
      created: Math.floor(Date.now() / 1000),
    };
    transfers.push(transfer);
    return transfer;
  }

  /** A Transfer Reversal: never more than is left of the transfer; the transfer (with its reversals) is sent as `transfer.reversed`. */
  function reverseTransfer(id: string, form: Obj): Obj {
    const transfer = transfers.find((t) => t.id === id) ?? missingOf('transfer', id);
    const left = (transfer.amount as number) - (transfer.amount_reversed as number);
    const amount = form.amount === undefined ? left : Number(form.amount);
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > left) throw invalid(`Transfer reversal amount (${amount}) is greater than the unreversed amount of the transfer (${left}).`, { param: 'amount' });
    const reversal: Obj = { id: newId('trr'), object: 'transfer_reversal', amount, currency: transfer.currency, transfer: id, metadata: form.metadata ?? {}, created: Math.floor(Date.now() / 1000) };
    const list = transfer.reversals as { data: Obj[] };
    Object.assign(transfer, { amount_reversed: (transfer.amount_reversed as number) + amount, reversed: (transfer.amount_reversed as number) + amount === transfer.amount, reversals: { ...list, data: [reversal, ...list.data] } });
    emit('transfer.reversed', transfer);
    return reversal;
  }

  return (method, path, form, query) => {
    let m: RegExpExecArray | null;
    if (method === 'GET' && path === '/v1/account') return s.platformAccount;
    if (path === '/v1/accounts' && !s.connectEnabled) throw notConnect();
    if (method === 'GET' && path === '/v1/accounts') return { object: 'list', url: path, has_more: false, data: [...accounts.values()].slice(0, Number(query.get('limit') ?? 10)) };
    if (method === 'POST' && path === '/v1/accounts') return createAccount(form);
    if (method === 'GET' && (m = /^\/v1\/accounts\/([^/]+)$/.exec(path))) return accounts.get(m[1]!) ?? missingOf('account', m[1]!);
    if (method === 'POST' && path === '/v1/account_sessions') return createAccountSession(form);
    if (method === 'POST' && path === '/v1/transfers') return createTransfer(form);
    if (method === 'POST' && (m = /^\/v1\/transfers\/([^/]+)\/reversals$/.exec(path))) return reverseTransfer(m[1]!, form);
    if (method === 'GET' && (m = /^\/v1\/transfers\/([^/]+)$/.exec(path))) return transfers.find((t) => t.id === m![1]) ?? missingOf('transfer', m[1]!);
    if (method === 'GET' && path === '/v1/transfers') return list('/v1/transfers', transfers.filter((t) => form.transfer_group === undefined || t.transfer_group === form.transfer_group));
    return undefined;
  };
}
