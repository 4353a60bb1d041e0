import type { Stripe } from 'stripe';
import { DomainError } from '../../core/errors.js';
import type { PaymentEvent } from '../../core/ports/payments.js';
import { STRIPE_API_VERSION } from './stripe-payments.js';

/**
 * A Stripe webhook delivery, verified with the official package (`constructEvent`: the
 * `Stripe-Signature` HMAC over the raw bytes with STRIPE_WEBHOOK_SECRET, and its timestamp within
 * Stripe's default tolerance of 5 minutes, so a captured delivery cannot be replayed later), reduced
 * to the event we store. A bad or missing signature is a 400 problem: Stripe shows it in the
 * endpoint's delivery log, and nothing is stored.
 */
export async function verifyStripeWebhook(raw: Buffer, signature: string | undefined, secret: string): Promise<PaymentEvent> {
  if (!signature) throw new DomainError('invalid_signature', 'The Stripe-Signature header is missing.');
  const { default: StripeSdk } = await import('stripe');
  let event: Stripe.Event;
  try {
    event = StripeSdk.webhooks.constructEvent(raw, signature, secret);
  } catch (e) {
    throw new DomainError('invalid_signature', `The Stripe-Signature header does not match this body: ${(e as Error).message.split('\n')[0]}`);
  }
  // an event rendered in another API version has other field names and meanings: refused (Stripe
  // shows the 400 in the endpoint's log and redelivers once the endpoint's version is set right)
  if (event.api_version !== STRIPE_API_VERSION) {
    throw new DomainError('malformed_request', `Stripe event ${event.id} is rendered in API version ${event.api_version ?? '(none)'}; this service reads ${STRIPE_API_VERSION} only: set the webhook endpoint's API version to ${STRIPE_API_VERSION}.`);
  }
  return fromStripeEvent(event);
}

type StripeObject = { id?: string; object?: string; payment_intent?: string | { id: string } | null; metadata?: Record<string, string> | null };

/** The PaymentIntent an event concerns (its own object, or the charge's, refund's or dispute's) and our metadata where Stripe copied it. */
export function fromStripeEvent(event: Stripe.Event): PaymentEvent {
  const object = event.data.object as StripeObject;
  const paymentIntent = object.object === 'payment_intent' ? object.id : typeof object.payment_intent === 'string' ? object.payment_intent : object.payment_intent?.id;
  return {
    id: event.id,
    provider: 'stripe',
    type: event.type,
    paymentId: paymentIntent ?? undefined,
    marketplaceId: object.metadata?.marketplace_id,
    orderId: object.metadata?.order_id,
    ...(event.account ? { connectedAccount: event.account } : {}),
    createdAt: new Date(event.created * 1000),
    // kept for the payouts work, without the PaymentIntent's client secret (a bearer secret of the buyer's payment form)
    data: Object.fromEntries(Object.entries(object).filter(([key]) => key !== 'client_secret')),
  };
}
