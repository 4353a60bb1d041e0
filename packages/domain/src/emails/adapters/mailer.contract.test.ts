import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MailError, type Mailer, type OutgoingEmail } from '../../core/ports/mailer.js';
import { localMailbox } from './local-mailbox.js';
import { resendMailer } from './resend-mailer.js';
import { startResendTestServer, type ResendTestServer } from '../../testing/resend-test-server.js';

/**
 * One contract for both mail adapters: what was handed over arrives intact, ids are distinct, and
 * failures say whether a retry makes sense. Resend runs through the real `resend` package against a
 * local server speaking Resend's HTTP API (resend-test-server.ts, shared with the contacts contract;
 * there is no network here); the local mailbox against disk.
 */
interface Received {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

interface Fixture {
  mailer: Mailer;
  /** what the delivery target holds for a provider id */
  received(providerId: string): Received;
  /** make the next send fail the way a passing outage would */
  breakTransiently(): void;
  /** make the next send fail for good, where the adapter has such failures */
  breakPermanently?(): void;
}

const email = (over: Partial<OutgoingEmail> = {}): OutgoingEmail => ({
  id: crypto.randomUUID(),
  from: 'Möbel & Co <no-reply@shop.example>',
  to: 'åsa@example.com',
  subject: 'Bekräfta din e-postadress',
  text: 'Hej Åsa,\n\nhttps://shop.example/sv/auth/verify-email?token=abc\n',
  html: '<p>Hej Åsa,</p><a href="https://shop.example/sv/auth/verify-email?token=abc">Bekräfta</a>',
  ...over,
});

function decodeEml(eml: string): Received {
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(eml)![1]!.trim();
  const decodeWord = (v: string) => v.replace(/=\?UTF-8\?B\?([^?]+)\?=/g, (_m, b64: string) => Buffer.from(b64, 'base64').toString('utf8'));
  const part = (type: string) => {
    const m = new RegExp(`Content-Type: ${type}; charset=utf-8\\r\\nContent-Transfer-Encoding: base64\\r\\n\\r\\n([A-Za-z0-9+/=\\r\\n]+)`).exec(eml)!;
    return Buffer.from(m[1]!.replace(/\r\n/g, ''), 'base64').toString('utf8');
  };
  return { from: decodeWord(header('From')), to: header('To'), subject: decodeWord(header('Subject')), text: part('text/plain'), html: part('text/html') };
}

function localFixture(): Fixture {
  const root = mkdtempSync(path.join(tmpdir(), 'hm-mailbox-'));
  let dir = path.join(root, 'mailbox');
  const fixture: Fixture = {
    mailer: localMailbox(dir),
    received(id) {
      const file = readdirSync(dir).find((f) => f.endsWith(`${id}.eml`))!;
      return decodeEml(readFileSync(path.join(dir, file), 'utf8'));
    },
    breakTransiently() {
      // a file where the folder should be: the disk refuses, as when it is full or unmounted
      const blocked = path.join(root, 'not-a-folder');
      writeFileSync(blocked, '');
      const broken = localMailbox(path.join(blocked, 'mailbox'));
      const healthy = fixture.mailer;
      fixture.mailer = { name: 'local', send: (e) => ((fixture.mailer = healthy), broken.send(e)) };
      dir = path.join(root, 'mailbox');
    },
  };
  return fixture;
}

async function resendFixture(): Promise<{ fixture: Fixture; server: ResendTestServer }> {
  const server = await startResendTestServer();
  const fixture: Fixture = {
    mailer: resendMailer({ apiKey: server.apiKey, baseUrl: server.url }),
    received: (id) => server.email(id)!,
    breakTransiently: () => server.failNext(1, [500, 503, 429][Math.floor(Math.random() * 3)]!),
    breakPermanently: () => server.failNext(1, 422),
  };
  return { fixture, server };
}

const servers: ResendTestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const adapters: [string, () => Promise<Fixture>][] = [
  ['local mailbox', async () => localFixture()],
  [
    'resend',
    async () => {
      const { fixture, server } = await resendFixture();
      servers.push(server);
      return fixture;
    },
  ],
];

describe.each(adapters)('mail adapter contract: %s', (_name, make) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await make();
  });

  test('delivers sender, recipient, subject, text and HTML intact (non-ASCII included)', async () => {
    const sent = email();
    const { providerId } = await f.mailer.send(sent);
    expect(providerId).toMatch(/\S{8,}/);
    expect(f.received(providerId)).toEqual({ from: sent.from, to: sent.to, subject: sent.subject, text: sent.text, html: sent.html });
  });

  test('each email gets its own provider id', async () => {
    const a = await f.mailer.send(email());
    const b = await f.mailer.send(email());
    expect(a.providerId).not.toBe(b.providerId);
  });

  test('a passing outage is a retryable MailError; the next send works', async () => {
    f.breakTransiently();
    const err = await f.mailer.send(email()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MailError);
    expect((err as MailError).retryable).toBe(true);
    const { providerId } = await f.mailer.send(email({ subject: 'after' }));
    expect(f.received(providerId).subject).toBe('after');
  });

  test('a refused email is a permanent MailError (where the adapter can refuse)', async () => {
    if (!f.breakPermanently) return expect(f.mailer.name).toBe('local');
    f.breakPermanently();
    const err = await f.mailer.send(email()).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'MailError', retryable: false });
  });
});

test('resend: a retry of the same email (same id) is not sent twice', async () => {
  const { fixture, server } = await resendFixture();
  servers.push(server);
  const e = email();
  const first = await fixture.mailer.send(e);
  const again = await fixture.mailer.send(e);
  expect(again.providerId).toBe(first.providerId);
});
