/** Entry point of `@hm/domain/emails`: the mail port, its adapters and the delivery command the worker runs. */
export { deliverEmail, type DeliveryDeps, type DeliveryResult } from './commands/deliver-email.js';
export { MailError, type Mailer, type OutgoingEmail } from './mailer.js';
export { localMailbox } from './adapters/local-mailbox.js';
export { resendMailer } from './adapters/resend-mailer.js';
