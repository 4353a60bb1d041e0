import { z } from 'zod';
import { EmailSchema } from '@hm/db/entities';
import { keyProcedure } from '../../trpc.js';
import { NotFoundError } from '@hm/domain/core';
import { ZDateTime, ZId, pageLimit } from '@hm/domain/core';
import { EMAIL_TEMPLATES, TEAM_TEMPLATES } from '@hm/domain/emails';

export const ZTestEmail = z
  .object({
    id: ZId,
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    links: z.array(z.string()).meta({ description: 'Every link in the email, in order.' }),
    template: z.enum([...EMAIL_TEMPLATES, ...TEAM_TEMPLATES]),
    locale: z.string().meta({ description: 'Language the email was written in.' }),
    sent_at: ZDateTime,
  })
  .meta({ id: 'TestEmail' });

export const listTestEmails = keyProcedure
  .meta({
    auth: 'secret',
    openapi: {
      operationId: 'listTestEmails',
      method: 'GET',
      path: '/test-helpers/emails',
      tags: ['Test helpers'],
      summary: 'Emails sent (test mode)',
      description:
        "The marketplace's sent emails, newest first, with their links: walk sign-up, sign-in links and resets without a real inbox. Test mode only (404 in live mode). Emails are sent by the background worker, usually within a second of the request that caused them.",
    },
  })
  .input(
    z.strictObject({
      to: z.string().max(254).optional().meta({ description: 'Only emails to this address (case-insensitive).' }),
      limit: pageLimit(100, 20),
    }),
  )
  .output(z.object({ items: z.array(ZTestEmail) }))
  .query(async ({ ctx, input }) => {
    if (ctx.mode !== 'test') throw new NotFoundError('Test helpers exist in test mode only; this endpoint');
    const rows = await ctx.em.find(
      EmailSchema,
      { status: 'sent', ...(input.to ? { to: { $ilike: input.to.replace(/[\\%_]/g, '\\$&') } } : {}) },
      { orderBy: { sentAt: 'desc', id: 'desc' }, limit: input.limit },
    );
    return {
      items: rows.map((e) => ({
        id: e.id,
        to: e.to,
        subject: e.subject,
        text: e.text ?? '',
        html: e.html ?? '',
        links: e.links.map((l) => l.url),
        template: e.template as (typeof EMAIL_TEMPLATES)[number] | (typeof TEAM_TEMPLATES)[number],
        locale: e.locale,
        sent_at: e.sentAt!.toISOString(),
      })),
    };
  });
