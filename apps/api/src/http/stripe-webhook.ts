import type { FastifyInstance } from 'fastify';
import type { MikroORM } from '@hm/db/orm';
import type { Clock } from '@hm/domain/core';
import { recordPaymentEvents, STRIPE_WEBHOOK_PATHS, verifyStripeWebhook } from '@hm/domain/payments';
import { problem, sendProblem } from './problem.js';

/** Stripe's events are a few kilobytes; a PaymentIntent with long metadata stays far below this. */
export const STRIPE_WEBHOOK_BODY_LIMIT = 256 * 1024;

/**
 * `POST /webhooks/stripe` and `POST /webhooks/stripe/connect`: Stripe's event deliveries, outside
 * /v1 (no API key: the signature is the credential), each checked with its endpoint's secret. The body
 * is kept as the bytes that arrived, since the signature is over exactly those. A verified event is
 * stored once by its id and handed to the `handle-payment-event` job before we answer 200 (both
 * routes feed the same handling), so Stripe retries anything we did not keep; a replay answers 200
 * and changes nothing. An event of a connected account on the platform route, or a platform event
 * on the Connect route, is refused (400): the endpoints are registered the wrong way round. Without
 * Stripe configured (or without the Connect secret, for that route) the route answers 404.
 */
export function registerStripeWebhook(scope: FastifyInstance, deps: { orm: MikroORM; clock: Clock; webhookSecret?: string; connectWebhookSecret?: string }) {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT }, (_req, body, done) => done(null, body));

  for (const endpoint of ['platform', 'connect'] as const) {
    const secret = endpoint === 'platform' ? deps.webhookSecret : deps.connectWebhookSecret;
    scope.post(STRIPE_WEBHOOK_PATHS[endpoint], { bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT }, async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      if (!secret) {
        const unset = endpoint === 'platform' ? 'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set' : 'STRIPE_CONNECT_WEBHOOK_SECRET is not set';
        return sendProblem(reply, problem('not_found', `This deployment takes no Stripe ${endpoint === 'connect' ? 'Connect ' : ''}webhooks: ${unset}.`));
      }
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const header = req.headers['stripe-signature'];
      // refused deliveries (bad signature, another API version) are logged: Stripe only shows a 400 in its dashboard
      const event = await verifyStripeWebhook(raw, typeof header === 'string' ? header : undefined, secret).catch((e: unknown) => {
        req.log.warn({ endpoint, reason: (e as Error).message }, 'stripe webhook refused');
        throw e;
      });
      if ((endpoint === 'connect') !== (event.connectedAccount !== undefined)) {
        const detail =
          endpoint === 'connect'
            ? `Event ${event.id} is the platform's own (it names no connected account): Stripe sends those to the platform endpoint ${STRIPE_WEBHOOK_PATHS.platform}.`
            : `Event ${event.id} happened on the connected account ${event.connectedAccount}: Stripe sends those only to a Connect endpoint, ${STRIPE_WEBHOOK_PATHS.connect}.`;
        return sendProblem(reply, problem('malformed_request', detail));
      }
      const [recorded] = await recordPaymentEvents(deps, [event]);
      req.log.info({ event: event.id, type: event.type, endpoint, stored: recorded!.stored }, 'stripe webhook');
      return reply.code(200).type('application/json').send(JSON.stringify({ received: true, duplicate: !recorded!.stored }));
    });
  }
}
