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
  /**
   * The go-live check: the provider's sending domain for an address (`shop.example` for
   * `orders@shop.example`) and its verification status, null when the provider has no such domain.
   * Absent on the local mailbox (it sends nothing). Rejects with MailError when the provider cannot be asked.
   */
  sendingDomain?(from: string): Promise<{ name: string; status: string } | null>;
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
