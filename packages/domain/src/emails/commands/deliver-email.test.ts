import { expect, inject, test } from 'vitest';
import { EmailSchema, MarketplaceSchema } from '@hm/db/entities';
import { createOrm, tenantEm } from '@hm/db/orm';
import { createTestDatabase } from '@hm/db/testing';
import { MailError, type Mailer } from '../../core/ports/mailer.js';
import { deliverEmail } from './deliver-email.js';

/** The send-email job's decisions: send once, retry transient failures, give up at the last attempt or on a refusal. */
async function setup() {
  const orm = await createOrm(await createTestDatabase(inject('adminDatabaseUrl')), { poolMax: 2 });
  const em = orm.em.fork();
  const m = em.create(MarketplaceSchema, {
    name: 'Shop "A"',
    slug: 'a',
    currencies: ['EUR'],
    locales: ['en'],
    termKinds: [],
    listingRules: { min_images: 1, require_approval: false, require_category: false, required_terms: [], valuations: false },
    shipping: { sizes: [], zones: [] },
    commissionPercent: 10,
    storefrontUrl: 'https://shop.example',
  });
  await em.flush();
  const tem = tenantEm(orm, m.id);
  const queue = async () => {
    const e = tem.create(EmailSchema, { marketplaceId: m.id, userId: null, to: 'a@example.com', template: 'sign_in_link', locale: 'en', subject: 'S', text: 'T', html: '<p>H</p>', links: [{ label: 'x', url: 'https://shop.example/en/auth/sign-in?token=t' }], status: 'queued', provider: null, providerId: null, error: null, sentAt: null });
    await tem.flush();
    return { marketplaceId: m.id, emailId: e.id };
  };
  const read = (id: string) => tenantEm(orm, m.id).findOneOrFail(EmailSchema, { id });
  return { orm, queue, read };
}

const recording = (outcomes: (Error | string)[]): Mailer & { calls: string[] } => {
  const calls: string[] = [];
  return {
    name: 'resend',
    calls,
    async send(e) {
      calls.push(e.from);
      const next = outcomes.shift() ?? 'id-default';
      if (next instanceof Error) throw next;
      return { providerId: next };
    },
  };
};

const clock = { now: () => new Date('2026-11-22T10:00:00Z') };

test('sends once with the marketplace as sender name; a second run does nothing', async () => {
  const { orm, queue, read } = await setup();
  const ref = await queue();
  const mailer = recording(['p1']);
  const deps = { orm, mailer, mode: 'test' as const, clock, mailFrom: 'no-reply@shop.example' };
  expect(await deliverEmail(deps, ref, { number: 1, max: 10 })).toBe('sent');
  expect(await deliverEmail(deps, ref, { number: 1, max: 10 })).toBe('already_done');
  expect(mailer.calls).toEqual(['Shop A <no-reply@shop.example>']);
  expect(await read(ref.emailId)).toMatchObject({ status: 'sent', provider: 'resend', providerId: 'p1', text: 'T', sentAt: clock.now() });
  await orm.close(true);
});

test('a transient failure is rethrown (the job retries) until the last attempt, which marks the email failed', async () => {
  const { orm, queue, read } = await setup();
  const ref = await queue();
  const mailer = recording([new MailError('Resend 503', true), new MailError('Resend 429', true)]);
  const deps = { orm, mailer, mode: 'test' as const, clock, mailFrom: 'x@shop.example' };
  await expect(deliverEmail(deps, ref, { number: 1, max: 2 })).rejects.toThrow('Resend 503');
  expect(await read(ref.emailId)).toMatchObject({ status: 'queued', error: 'Resend 503' });
  expect(await deliverEmail(deps, ref, { number: 2, max: 2 })).toBe('failed');
  expect(await read(ref.emailId)).toMatchObject({ status: 'failed', error: 'Resend 429' });
  await orm.close(true);
});

test('a refusal fails the email at once; live mode drops the body after sending', async () => {
  const { orm, queue, read } = await setup();
  const refused = await queue();
  const deps = { orm, mailer: recording([new MailError('Resend 422 validation_error', false)]), mode: 'live' as const, clock, mailFrom: 'x@shop.example' };
  expect(await deliverEmail(deps, refused, { number: 1, max: 10 })).toBe('failed');
  expect((await read(refused.emailId)).status).toBe('failed');
  const ok = await queue();
  expect(await deliverEmail({ ...deps, mailer: recording(['p2']) }, ok, { number: 1, max: 10 })).toBe('sent');
  expect(await read(ok.emailId)).toMatchObject({ status: 'sent', text: null, html: null, links: [] });
  await orm.close(true);
});
