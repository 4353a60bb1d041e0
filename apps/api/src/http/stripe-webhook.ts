import type { FastifyInstance } from 'fastify';
import type { MikroORM } from '@hm/db/orm';
import type { Clock } from '@hm/domain/core';
import { recordPaymentEvents, verifyStripeWebhook } from '@hm/domain/payments';
import { problem, sendProblem } from './problem.js';

/** Stripe's events are a few kilobytes; a PaymentIntent with long metadata stays far below this. */
export const STRIPE_WEBHOOK_BODY_LIMIT = 256 * 1024;

/**
 * `POST /webhooks/stripe`: Stripe's event deliveries, outside /v1 (no API key: the signature is the
 * credential). The body is kept as the bytes that arrived, since the signature is over exactly
 * those. A verified event is stored once by its id and handed to the `handle-payment-event` job
 * before we answer 200, so Stripe retries anything we did not keep; a replay answers 200 and
 * changes nothing. Without Stripe configured the route answers 404.
 */
export function registerStripeWebhook(scope: FastifyInstance, deps: { orm: MikroORM; clock: Clock; webhookSecret?: string }) {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT }, (_req, body, done) => done(null, body));

  scope.post('/webhooks/stripe', { bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT }, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (!deps.webhookSecret) return sendProblem(reply, problem('not_found', 'This deployment takes no Stripe webhooks: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set.'));
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const header = req.headers['stripe-signature'];
    // refused deliveries (bad signature, another API version) are logged: Stripe only shows a 400 in its dashboard
    const event = await verifyStripeWebhook(raw, typeof header === 'string' ? header : undefined, deps.webhookSecret).catch((e: unknown) => {
      req.log.warn({ reason: (e as Error).message }, 'stripe webhook refused');
      throw e;
    });
    const [recorded] = await recordPaymentEvents(deps, [event]);
    req.log.info({ event: event.id, type: event.type, stored: recorded!.stored }, 'stripe webhook');
    return reply.code(200).type('application/json').send(JSON.stringify({ received: true, duplicate: !recorded!.stored }));
  });
}
