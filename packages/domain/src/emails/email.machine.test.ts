import type { Email } from '@hm/db/entities';
import { expect, test } from 'vitest';
import type { DomainError } from '../core/errors.js';
import { transition } from '../core/state-machine.js';
import { emailMachine, type EmailMachineTypes } from './email.machine.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const email = (status: Email['status']) => ({ status, sentAt: null, error: 'timeout' }) as unknown as Email;
const move = (e: Email, event: EmailMachineTypes['event'], actor: EmailMachineTypes['actor'] = 'system') =>
  transition(emailMachine, e, event, actor, { now: NOW }).then(
    () => undefined,
    (err: DomainError) => ({ code: err.code, detail: err.message }),
  );

test('queued → send → sent (sent_at now, last error cleared); queued → fail → failed (error kept)', async () => {
  const sent = email('queued');
  expect(await move(sent, 'send')).toBeUndefined();
  expect(sent).toMatchObject({ status: 'sent', sentAt: NOW, error: null });
  const failed = email('queued');
  expect(await move(failed, 'fail')).toBeUndefined();
  expect(failed).toMatchObject({ status: 'failed', sentAt: null, error: 'timeout' });
});

test.each([
  ['sent', 'send'],
  ['sent', 'fail'],
  ['failed', 'send'],
  ['failed', 'fail'],
] as const)('%s + %s is refused (409): an email is sent or given up once', async (status, event) => {
  const e = email(status);
  expect(await move(e, event)).toEqual({ code: 'conflict', detail: `Cannot ${event} this email: it is ${status}.` });
  expect(e.status).toBe(status);
});

test('only the system moves an email (403 for anyone else)', async () => {
  expect(await move(email('queued'), 'send', 'operator' as 'system')).toEqual({ code: 'forbidden', detail: 'The operator cannot send this email.' });
});
