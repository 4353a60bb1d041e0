import { z } from 'zod';
import { MarketplaceSchema } from '@hm/db/entities';
import { tenantEm, type EntityManager } from '@hm/db/orm';
import type { CommandContext } from '../../core/context.js';
import { normalizeEmail } from '../../accounts/index.js';
import { addJob, jobKey } from '../../core/jobs.js';
import { defineTask } from '../../core/tasks.js';
import { ContactsError } from '../../core/ports/contacts.js';
import { findSubscriber, insertSubscriber, markContactAdded, pendingSubscriberIds } from '../newsletter.queries.js';
import type { SubscribeInput } from '../newsletter.schema.js';

/**
 * POST /v1/newsletter/subscribers. A new address is recorded with its `add-newsletter-contact` job in
 * one transaction; a known one changes nothing (not its name, language or source) and queues
 * nothing. The caller answers 202 either way, so the answer never tells whether an address was known.
 */
export async function subscribe(ctx: CommandContext, input: SubscribeInput): Promise<void> {
  const email = input.email;
  await ctx.em.transactional(async (em) => {
    const id = await insertSubscriber(em, {
      email,
      emailNormalized: normalizeEmail(email),
      firstName: input.first_name?.trim() ?? '',
      locale: input.locale ?? '',
      source: input.source ?? '',
      at: ctx.clock.now(),
    });
    if (id) await queueContact(em, ctx.marketplace.id, id);
  });
}

function queueContact(em: EntityManager, marketplaceId: string, subscriberId: string) {
  return addJob(em, addNewsletterContactTask, { marketplace_id: marketplaceId, subscriber_id: subscriberId }, { jobKey: jobKey(addNewsletterContactTask, subscriberId) });
}

/** After the team sets the marketplace's audience: a job for every sign-up still waiting for the list. */
export async function queuePendingContacts(em: EntityManager, marketplaceId: string): Promise<number> {
  const ids = await pendingSubscriberIds(em);
  for (const id of ids) await queueContact(em, marketplaceId, id);
  return ids.length;
}

/**
 * Puts one sign-up on the marketplace's contact list through the contacts port, once (a subscriber
 * already added is left alone, so the job is safe to run twice). With Resend and no audience set it
 * waits: setting the audience in the console queues the waiting ones again. Transient provider
 * failures are retried with graphile-worker's backoff; a refusal is given up on and logged.
 */
export const addNewsletterContactTask = defineTask({
  name: 'add-newsletter-contact',
  payload: z.object({ marketplace_id: z.uuid(), subscriber_id: z.uuid() }),
  maxAttempts: 10,
  async run(p, ctx) {
    const em = tenantEm(ctx.orm, p.marketplace_id);
    const subscriber = await findSubscriber(em, p.subscriber_id);
    if (!subscriber) return 'no such subscriber';
    if (subscriber.contact_id) return `already on the list as ${subscriber.contact_id}`;
    const m = await em.findOneOrFail(MarketplaceSchema, { id: p.marketplace_id });
    if (ctx.contacts.needsAudience && !m.newsletterAudienceId) return `waiting: no ${ctx.contacts.name} audience set for marketplace ${m.slug}`;
    try {
      const { contactId } = await ctx.contacts.add({ em, marketplaceId: m.id, audienceId: m.newsletterAudienceId ?? null }, { email: subscriber.email_normalized, firstName: subscriber.first_name });
      await markContactAdded(em, subscriber.id, ctx.contacts.name, contactId, ctx.clock.now());
      return `added as ${ctx.contacts.name} contact ${contactId}`;
    } catch (e) {
      const retryable = e instanceof ContactsError ? e.retryable : true;
      if (retryable && ctx.attempt.number < ctx.attempt.max) throw e;
      return `not added: ${(e as Error).message}`;
    }
  },
});
