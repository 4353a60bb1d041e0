/** Entry point of `@hm/domain/emails`: the mail port and its adapters (the `send-email` task is in `@hm/domain/tasks`). */
export { MailError, type Mailer, type OutgoingEmail } from './mailer.js';
export { localMailbox } from './adapters/local-mailbox.js';
export { resendMailer } from './adapters/resend-mailer.js';
