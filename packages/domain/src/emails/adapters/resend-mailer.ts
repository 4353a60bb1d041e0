import { MailError, type Mailer } from '../../core/ports/mailer.js';

/**
 * Resend, through the official `resend` package. Our email id is sent as Resend's idempotency key,
 * so a retry after a lost response does not send twice. 429 and 5xx (and network failures) are
 * retryable: the job throws and graphile-worker tries again later; other 4xx fail the email.
 */
export function resendMailer(opts: { apiKey: string; baseUrl?: string }): Mailer {
  // The SDK loads on first send: processes that never send (the console) do not pay for it.
  let client: Promise<import('resend').Resend> | undefined;
  const resend = () => (client ??= import('resend').then(({ Resend }) => new Resend(opts.apiKey, opts.baseUrl ? { baseUrl: opts.baseUrl } : undefined)));
  return {
    name: 'resend',
    async send(email) {
      const { data, error } = await (await resend()).emails.send(
        { from: email.from, to: [email.to], subject: email.subject, text: email.text, html: email.html },
        { idempotencyKey: `email-${email.id}` },
      );
      if (error) {
        const status = error.statusCode;
        const retryable = status === null || status === 429 || status >= 500;
        throw new MailError(`Resend ${status ?? 'network error'} ${error.name}: ${error.message}`, retryable);
      }
      if (!data?.id) throw new MailError('Resend answered without a message id', true);
      return { providerId: data.id };
    },
    async sendingDomain(from) {
      const domain = from.slice(from.lastIndexOf('@') + 1).toLowerCase();
      const { data, error } = await (await resend()).domains.list();
      if (error) throw new MailError(`Resend ${error.statusCode ?? 'network error'} ${error.name}: ${error.message}`, error.statusCode === null || error.statusCode === 429 || error.statusCode >= 500);
      const found = data?.data.find((d) => d.name.toLowerCase() === domain);
      return found ? { name: found.name, status: found.status } : null;
    },
  };
}
