import path from 'node:path';
import { systemClock, type Clock, type Ports } from './core/ports/index.js';
import { localMailbox } from './emails/index.js';
import { diskImageStore } from './images/index.js';
import { localPayments } from './payments/index.js';
import { localContacts } from './newsletter/index.js';
import { fileSecretBox } from './webhooks/index.js';

export { systemClock, type Clock, type Ports };

/** Where the offline adapters keep their files: `<dataDir>/mailbox/<mode>`, `<dataDir>/images/<mode>` and `<dataDir>/payments/<mode>`. */
export function localDirs(dataDir: string, mode: string) {
  return { mailbox: path.join(dataDir, 'mailbox', mode), images: path.join(dataDir, 'images', mode), payments: path.join(dataDir, 'payments', mode), secretsKey: path.join(dataDir, 'secrets', `${mode}.key`) };
}

/**
 * The offline adapters, what a deployment uses for every port no provider is configured for (the
 * composition root swaps in Resend, S3, Stripe, a rates URL …): mail as `.eml` files, photos on disk,
 * the payments sandbox on disk, the newsletter's contacts in Postgres, no reference-rates source, webhook secrets sealed under a key file `<dataDir>/secrets/<mode>.key` (made once). Tests and benchmarks use them as they
 * are, with their own clock. (A live deployment must replace the sandbox: runtime.ts refuses otherwise.)
 */
export function localPorts(opts: { dataDir: string; mode: string; clock?: Clock }): Ports {
  const dirs = localDirs(opts.dataDir, opts.mode);
  return { clock: opts.clock ?? systemClock, mailer: localMailbox(dirs.mailbox), images: diskImageStore(dirs.images), payments: localPayments(dirs.payments), contacts: localContacts(), secrets: fileSecretBox(dirs.secretsKey) };
}
