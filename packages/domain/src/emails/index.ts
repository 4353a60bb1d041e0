/** Entry point of `@hm/domain/emails`: the mail port and its adapters (the `send-email` task is in `@hm/domain/tasks`). */
export { type Mailer, MailError, type OutgoingEmail } from './../core/ports/mailer.js';
export { localMailbox } from './adapters/local-mailbox.js';
export { resendMailer } from './adapters/resend-mailer.js';
export { sendEmailTask } from './commands/deliver-email.js';
export { type AccountTemplate, type ListingNoticeTemplate, queueAccountEmail, queueListingNotice, queueMessageNotice, queueOrderNotice, queuePayoutFailedNotice, queueTeamAlert, queueTeamEmail } from './commands/queue-email.js';
export type { OrderTemplate } from './order-templates.js';
export { EMAIL_TEMPLATES, TEAM_ALERT_TEMPLATE, TEAM_TEMPLATES, type TeamTemplate } from './templates.js';
