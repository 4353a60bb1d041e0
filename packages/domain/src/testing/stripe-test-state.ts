/**
 * The Stripe test server's state and shared pieces (stripe-test-server.ts): what it holds, errors in
 * Stripe's shape, ids, lists. Each resource family (payments, Connect, webhooks) works on this state.
 */
import { randomBytes } from 'node:crypto';

export interface StripeTestEvent {
  id: string;
  type: string;
  payload: string;
  /** the connected account it happened on (Connect events) */
  account?: string;
}

export type Obj = Record<string, unknown>;
export class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: Obj,
  ) {
    super(String(body.message));
  }
}
export const invalid = (message: string, extra: Obj = {}) => new StripeFailure(400, { type: 'invalid_request_error', message, ...extra });
export const missing = (what: string, id: string) => new StripeFailure(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'`, param: 'id' });
export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
export const missingOf = (what: string, id: string): never => {
  throw missing(what, id);
};

/** a list in Stripe's shape, newest first (this server never pages: tests make few objects) */
export const list = (url: string, data: Obj[]): Obj => ({ object: 'list', url, has_more: false, data: [...data].reverse() });

/** Stripe's refusal of account calls (and Connect webhook endpoints) to a platform that did not sign up for Connect. */
export const notConnect = () =>
  invalid("You can only create new accounts if you've signed up for Connect, which you can learn how to do at https://stripe.com/docs/connect.", { code: 'platform_account_required' });

export interface StripeTestPlatform {
  /** the platform account's country (default SE) */
  country?: string;
  /** currencies the platform settles in, lower case, the first its default (default ['sek']); a charge in another is converted to the default */
  settles?: string[];
  /** minor units of the default currency per minor unit of another (default { eur: 11, usd: 10, jpy: 7 }) */
  rates?: Record<string, number>;
  /** Stripe approved the platform for `transfers` without `card_payments` under the full agreement (default false) */
  transfersOnlyApproved?: boolean;
}

/** Makes an event and delivers it to the endpoints that take it (stripe-test-webhooks.ts). */
export type Emit = (type: string, object: Obj, opts?: { account?: string }) => StripeTestEvent;

/** A resource family's routes: its answer to a request, or undefined when the request is not one of its. */
export type StripeRoutes = (method: string, path: string, form: Obj, query: URLSearchParams) => Obj | undefined;

/** Everything the server holds, in memory. */
export interface StripeState {
  livemode: boolean;
  platform: StripeTestPlatform;
  /** currencies the platform settles in, the first its default */
  settles: string[];
  rates: Record<string, number>;
  intents: Map<string, Obj>;
  charges: Map<string, Obj>;
  accounts: Map<string, Obj>;
  balanceTransactions: Map<string, Obj>;
  transfers: Obj[];
  accountSessions: Obj[];
  refunds: Obj[];
  /** the platform's own account (`GET /v1/account`), replaced by each change */
  platformAccount: Obj;
  /** whether the platform signed up for Connect */
  connectEnabled: boolean;
}

export function newStripeState(livemode: boolean, platform: StripeTestPlatform = {}): StripeState {
  const settles = platform.settles ?? ['sek'];
  return {
    livemode,
    platform,
    settles,
    rates: platform.rates ?? { eur: 11, usd: 10, jpy: 7 },
    intents: new Map(),
    charges: new Map(),
    accounts: new Map(),
    balanceTransactions: new Map(),
    transfers: [],
    accountSessions: [],
    refunds: [],
    platformAccount: {
      id: newId('acct'),
      object: 'account',
      country: platform.country ?? 'SE',
      default_currency: settles[0],
      charges_enabled: true,
      payouts_enabled: true,
      details_submitted: true,
      type: 'standard',
      business_profile: { name: 'Platform' },
      metadata: {},
    },
    connectEnabled: true,
  };
}
