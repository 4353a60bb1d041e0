import { mkdir, rename, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { MailError, type Mailer, type OutgoingEmail } from '../../core/ports/mailer.js';

/**
 * The offline default: each email becomes an RFC 5322 `.eml` file in a folder under DATA_DIR (any
 * mail client opens them). The storefront's dev mailbox and the test helper read the outbox table,
 * which records every email whichever adapter sent it.
 */
export function localMailbox(dir: string): Mailer {
  return {
    name: 'local',
    async send(email) {
      const providerId = randomUUID();
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${providerId}.eml`);
      try {
        await mkdir(dir, { recursive: true });
        // write then rename: a reader never sees half a message
        await writeFile(`${file}.tmp`, toEml(email, providerId), { mode: 0o600 });
        await rename(`${file}.tmp`, file);
      } catch (e) {
        throw new MailError(`local mailbox ${dir}: ${(e as Error).message}`, true);
      }
      return { providerId };
    },
  };
}

const encodeHeader = (s: string) => (/^[\x20-\x7e]*$/.test(s) ? s : `=?UTF-8?B?${Buffer.from(s, 'utf8').toString('base64')}?=`);

function encodeAddress(addr: string): string {
  const m = /^(.*)<([^>]+)>\s*$/.exec(addr);
  if (!m) return addr;
  return `${encodeHeader(m[1]!.trim())} <${m[2]}>`;
}

const base64Lines = (s: string) => Buffer.from(s, 'utf8').toString('base64').replace(/.{1,76}/g, '$&\r\n');

export function toEml(email: OutgoingEmail, providerId: string): string {
  const boundary = `hm-${providerId}`;
  return [
    `Message-ID: <${providerId}@local-mailbox>`,
    `Date: ${new Date().toUTCString()}`,
    `From: ${encodeAddress(email.from)}`,
    `To: ${email.to}`,
    `Subject: ${encodeHeader(email.subject)}`,
    `X-Email-Id: ${email.id}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(email.text),
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(email.html),
    `--${boundary}--`,
    '',
  ].join('\r\n');
}
