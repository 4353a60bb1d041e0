import type { Email } from '@hm/db/entities';
import { defineMachine } from '../core/state-machine.js';

/** The outbox: an email is queued with the change that causes it, then the `send-email` job sends it or gives up. */
export interface EmailMachineTypes {
  entity: Email;
  event: 'send' | 'fail';
  actor: 'system';
  ctx: undefined;
  data: object;
}

export const emailMachine = defineMachine<EmailMachineTypes>({
  name: 'email',
  initial: 'queued',
  rows: [
    { from: ['queued'], event: 'send', to: 'sent', who: ['system'], stamp: ['sentAt'], clear: ['error'] },
    // a permanent error, or the last attempt of a retryable one
    { from: ['queued'], event: 'fail', to: 'failed', who: ['system'] },
  ],
  refusal: (email, event) => `Cannot ${event} this email: it is ${email.status}.`,
});
