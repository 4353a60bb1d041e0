import type { Mailer } from './mailer.js';
import type { ImageStore } from './image-store.js';
import type { Payments } from './payments.js';
import type { RateSource } from './rate-source.js';
import type { Contacts } from './contacts.js';
import type { SecretBox } from './secret-box.js';

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/**
 * Everything outside the process that commands and tasks talk to, built once at the composition
 * root (apps/api/src/runtime.ts `createPorts`) and handed alike to the API, the worker, the
 * console and the tests. Contexts carry these fields (`ctx.clock`, `ctx.images`, …), so a new
 * port is a field here, its offline adapter in `localPorts` and its provider choice in `createPorts`.
 */
export interface Ports {
  clock: Clock;
  /** sends emails (the `send-email` task only: requests put emails in the outbox) */
  mailer: Mailer;
  /** listing photos: originals until processed, then their sizes */
  images: ImageStore;
  /** checkout's payments: Stripe, or the offline sandbox (test deployments only) */
  payments: Payments;
  /** the newsletter's contact list: Resend contacts, or a list in our own Postgres */
  contacts: Contacts;
  /** the daily reference rates; unset: operators set rates through the console only */
  rates?: RateSource;
  /** seals webhook secrets under a key outside the database (WEBHOOK_SECRETS_KEY, else a key file under DATA_DIR) */
  secrets: SecretBox;
}
