import { PaymentError, type PaymentRefusal } from '../../core/ports/payments.js';

/** Stripe's failures as the service's PaymentErrors: retry later, or refused for good and why. */

/** Stripe's answer was a stored 5xx, replayed under its idempotency key. */
export function replayedServerError(e: unknown): boolean {
  const err = e as { type?: unknown; statusCode?: number; headers?: Record<string, string | undefined> } | undefined;
  return typeof err?.type === 'string' && err.type.startsWith('Stripe') && (err.statusCode ?? 0) >= 500 && err.headers?.['idempotent-replayed'] === 'true';
}

/**
 * What the caller can do about a Stripe failure: retry later (no answer, a timeout, 409 lock
 * timeouts, 429, 5xx) or not (invalid request, declined card, unknown object). Anything not from the
 * SDK (a bug of ours) is left as it is, so it is not mistaken for an outage.
 */
export function toPaymentError(what: string, e: unknown): unknown {
  const err = e as { type?: unknown; statusCode?: number; code?: string; param?: string; message?: string } | undefined;
  if (e instanceof PaymentError || typeof err?.type !== 'string' || !err.type.startsWith('Stripe')) return e;
  const status = err.statusCode;
  const detail = `Stripe could not ${what}: ${[status ?? 'no answer', err.code, err.message].filter(Boolean).join(' ')}`;
  // no answer (network, timeout), 409 (a lock timeout, or the same key still being worked on), 429, 5xx, and
  // `lock_timeout` whatever its status: the same request may succeed later
  const outage = status === undefined || status === 409 || status === 429 || status >= 500 || err.code === 'lock_timeout' || err.code === 'rate_limit';
  if (outage) return new PaymentError(detail, 'unavailable', err.code);
  if (err.code === 'payment_intent_unexpected_state') return new PaymentError(detail, 'unexpected_state', err.code);
  return new PaymentError(detail, 'refused', err.code, refusalOf(err.code, err.param, err.message));
}

/** Stripe's error codes of a refusal for good, by what the team has to fix (its list of error codes). */
function refusalOf(code: string | undefined, param: string | undefined, message = ''): PaymentRefusal {
  if (code === 'balance_insufficient' || code === 'insufficient_funds') return 'platform_balance_insufficient';
  if (code === 'insufficient_capabilities_for_transfer' || code === 'account_invalid' || code === 'account_closed' || code?.startsWith('account_') || code === 'transfers_not_allowed') return 'account_not_ready';
  if (param === 'currency' || code?.includes('currency') || /\bcurrency\b/i.test(message)) return 'currency_not_accepted';
  return 'invalid_request';
}
