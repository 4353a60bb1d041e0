import { z } from 'zod';
import { EmailSchema, MarketplaceSchema } from '@hm/db/entities';
import { tenantEm, type MikroORM } from '@hm/db/orm';
import type { ApiMode, Clock } from '../../core/context.js';
import { defineTask } from '../../core/tasks.js';
import { transition } from '../../core/state-machine.js';
import { emailMachine } from '../email.machine.js';
import { MailError, type Mailer } from '../../core/ports/mailer.js';

export interface DeliveryDeps {
  orm: MikroORM;
  mailer: Mailer;
  mode: ApiMode;
  clock: Clock;
  /** sender address; the marketplace name is shown as the sender's name */
  mailFrom: string;
}

export type DeliveryResult = 'sent' | 'already_done' | 'failed';

/**
 * The `send-email` job: sends a queued email once. Safe to run twice (a sent or failed email is
 * left alone). A retryable MailError is rethrown so the job is retried; on the last attempt, or for
 * a permanent error, the email is marked failed. Live deployments drop the body once sent.
 */
export async function deliverEmail(deps: DeliveryDeps, ref: { marketplaceId: string; emailId: string }, attempt: { number: number; max: number }): Promise<DeliveryResult> {
  const em = tenantEm(deps.orm, ref.marketplaceId);
  const email = await em.findOne(EmailSchema, { id: ref.emailId });
  if (!email || email.status !== 'queued') return 'already_done';
  const marketplace = await em.findOneOrFail(MarketplaceSchema, { id: ref.marketplaceId });
  try {
    const { providerId } = await deps.mailer.send({
      id: email.id,
      from: `${marketplace.name.replace(/[<>"]/g, '')} <${deps.mailFrom}>`,
      to: email.to,
      subject: email.subject,
      text: email.text ?? '',
      html: email.html ?? '',
    });
    await transition(emailMachine, email, 'send', 'system', { now: deps.clock.now() });
    email.provider = deps.mailer.name;
    email.providerId = providerId;
    if (deps.mode === 'live') {
      email.text = null;
      email.html = null;
      email.links = [];
    }
    await em.flush();
    return 'sent';
  } catch (e) {
    const retryable = e instanceof MailError ? e.retryable : true;
    email.error = (e as Error).message;
    if (retryable && attempt.number < attempt.max) {
      await em.flush();
      throw e;
    }
    await transition(emailMachine, email, 'fail', 'system', { now: deps.clock.now() });
    email.provider = deps.mailer.name;
    await em.flush();
    return 'failed';
  }
}

/** Sends one email from the outbox; transient failures are retried with graphile-worker's backoff (~1 s … ~3 h). */
export const sendEmailTask = defineTask({
  name: 'send-email',
  payload: z.object({ marketplace_id: z.uuid(), email_id: z.uuid() }),
  maxAttempts: 10,
  run: (p, ctx) => deliverEmail(ctx, { marketplaceId: p.marketplace_id, emailId: p.email_id }, ctx.attempt),
});
