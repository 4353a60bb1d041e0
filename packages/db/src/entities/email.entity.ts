import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns } from './common.js';

export interface EmailLink {
  label: string;
  url: string;
}

/**
 * Outbox and log of the emails the service sends: written in the transaction of the change that
 * causes it, sent by the `send-email` job. Live deployments drop the body once it is sent (it
 * carries one-time links); test deployments keep it for the test helper and the dev mailbox.
 */
export const EmailSchema = defineEntity({
  name: 'Email',
  tableName: 'emails',
  properties: {
    ...tenantColumns(),
    userId: p.uuid().nullable(),
    to: p.string().fieldName('to'),
    template: p.string(),
    locale: p.string(),
    subject: p.string(),
    text: p.text().nullable(),
    html: p.text().nullable(),
    links: p.json<EmailLink[]>(),
    status: p.enum(['queued', 'sent', 'failed'] as const),
    provider: p.string().nullable(),
    providerId: p.string().nullable(),
    error: p.text().nullable(),
    sentAt: p.datetime().nullable(),
  },
});
export type Email = InferEntity<typeof EmailSchema>;
