/** Mail port: the `send-email` job hands a rendered message to one of its adapters. */
export interface OutgoingEmail {
  /** our email id: lets a provider drop a duplicate when a retry follows a lost response */
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  readonly name: 'local' | 'resend';
  /** Resolves with the provider's message id; rejects with MailError. */
  send(email: OutgoingEmail): Promise<{ providerId: string }>;
}

/** `retryable`: worth another attempt later (provider 5xx or 429, network); otherwise the email is failed for good. */
export class MailError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'MailError';
  }
}
