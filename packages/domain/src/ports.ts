import path from 'node:path';
import { localMailbox } from './emails/adapters/local-mailbox.js';
import type { Mailer } from './emails/mailer.js';
import { diskImageStore } from './images/adapters/disk-image-store.js';
import type { ImageStore } from './images/image-store.js';
import { localPayments } from './payments/adapters/local-payments.js';
import type { Payments } from './payments/payments.js';
import type { RateSource } from './rates/rate-source.js';
import type { Contacts } from './newsletter/contacts.js';
import { localContacts } from './newsletter/adapters/local-contacts.js';

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
}

/** Where the offline adapters keep their files: `<dataDir>/mailbox/<mode>`, `<dataDir>/images/<mode>` and `<dataDir>/payments/<mode>`. */
export function localDirs(dataDir: string, mode: string) {
  return { mailbox: path.join(dataDir, 'mailbox', mode), images: path.join(dataDir, 'images', mode), payments: path.join(dataDir, 'payments', mode) };
}

/**
 * The offline adapters, what a deployment uses for every port no provider is configured for (the
 * composition root swaps in Resend, S3, Stripe, a rates URL …): mail as `.eml` files, photos on disk,
 * the payments sandbox on disk, the newsletter's contacts in Postgres, no reference-rates source. Tests and benchmarks use them as they
 * are, with their own clock. (A live deployment must replace the sandbox: runtime.ts refuses otherwise.)
 */
export function localPorts(opts: { dataDir: string; mode: string; clock?: Clock }): Ports {
  const dirs = localDirs(opts.dataDir, opts.mode);
  return { clock: opts.clock ?? systemClock, mailer: localMailbox(dirs.mailbox), images: diskImageStore(dirs.images), payments: localPayments(dirs.payments), contacts: localContacts() };
}
