import { expect, test } from 'vitest';
import { ConfigError, readConfig as read } from './config.js';
import { createPorts } from './runtime.js';

const readConfig = (env: Record<string, string>, cwd: string) => read(env as NodeJS.ProcessEnv, cwd);

const live = { API_MODE: 'live', STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc', STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connect' };
const refusal = (env: Record<string, string>) => {
  try {
    readConfig(env, '/tmp');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    const message = (e as Error).message;
    expect(message.split('\n')).toHaveLength(1); // start-up prints it as one line
    return message;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
};

test('a live deployment needs an sk_live_ Stripe key and the webhook secret, and then pays through Stripe', () => {
  const needs = 'API_MODE=live needs STRIPE_SECRET_KEY (an sk_live_ key) and STRIPE_WEBHOOK_SECRET: a live deployment takes real payments through Stripe and never uses the payments sandbox.';
  expect(refusal({ API_MODE: 'live' })).toBe(needs);
  expect(refusal({ ...live, STRIPE_WEBHOOK_SECRET: '' })).toBe(needs);
  expect(refusal({ ...live, STRIPE_SECRET_KEY: 'sk_test_abc' })).toBe(needs);
  const config = readConfig(live, '/tmp');
  expect(createPorts(config).payments.name).toBe('stripe');
});

test('a live deployment refuses to start without the Connect endpoint’s secret; a test one may go without (the doctor names it); it never comes without a Stripe key', () => {
  expect(refusal({ ...live, STRIPE_CONNECT_WEBHOOK_SECRET: '' })).toBe(
    'API_MODE=live needs STRIPE_CONNECT_WEBHOOK_SECRET: the signing secret of the Connect webhook endpoint <API_URL>/webhooks/stripe/connect (made in Stripe with "Listen to events on Connected accounts"), without which no seller could ever be paid.',
  );
  expect(readConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' }, '/tmp').STRIPE_CONNECT_WEBHOOK_SECRET).toBeUndefined();
  expect(readConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc', STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_c' }, '/tmp').STRIPE_CONNECT_WEBHOOK_SECRET).toBe('whsec_c');
  expect(refusal({ STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_c' })).toMatch(/^STRIPE_CONNECT_WEBHOOK_SECRET is set without STRIPE_SECRET_KEY/);
});

test('a test deployment refuses live Stripe keys; Stripe keys come in pairs; publishable keys match the mode', () => {
  expect(refusal({ STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toBe('STRIPE_SECRET_KEY is a live key (sk_live_) but API_MODE=test: use an sk_test_ key, or set API_MODE=live.');
  expect(refusal({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toMatch(/^STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET/);
  expect(refusal({ STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toMatch(/^STRIPE_WEBHOOK_SECRET is set without STRIPE_SECRET_KEY/);
  expect(refusal({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'w', STRIPE_PUBLISHABLE_KEY: 'pk_live_abc' })).toBe('STRIPE_PUBLISHABLE_KEY is a live key but API_MODE=test: use a pk_test_ key.');
  expect(refusal({ ...live, STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' })).toBe('STRIPE_PUBLISHABLE_KEY is a test key but API_MODE=live: use a pk_live_ key.');
});

test('the sandbox is the test default; Stripe when its key is set, at STRIPE_API_BASE when given', () => {
  expect(createPorts(readConfig({}, '/tmp')).payments.name).toBe('local');
  const config = readConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc', STRIPE_API_BASE: 'http://127.0.0.1:12111' }, '/tmp');
  expect(config).toMatchObject({ STRIPE_API_BASE: 'http://127.0.0.1:12111', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' });
  expect(createPorts(config).payments.name).toBe('stripe');
  expect(() => readConfig({ STRIPE_SECRET_KEY: 'pk_test_abc' }, '/tmp')).toThrow(/STRIPE_SECRET_KEY: Must be a Stripe secret key/);
  expect(() => readConfig({ STRIPE_API_BASE: 'ftp://x' }, '/tmp')).toThrow(/STRIPE_API_BASE/);
});

test('newsletter contacts: the list in Postgres by default, Resend contacts with RESEND_API_KEY (and its mail)', () => {
  const local = createPorts(readConfig({}, '/tmp'));
  expect([local.contacts.name, local.mailer.name]).toEqual(['local', 'local']);
  const resend = createPorts(readConfig({ RESEND_API_KEY: 're_abc', MAIL_FROM: 'shop@example.com' }, '/tmp'));
  expect([resend.contacts.name, resend.mailer.name]).toEqual(['resend', 'resend']);
  expect(resend.contacts.needsAudience).toBe(true);
});

test('WORKER_CONCURRENCY: 8 jobs at once by default, 1..100 taken, 0 and 101 refused naming the variable', () => {
  expect(readConfig({}, '/tmp').WORKER_CONCURRENCY).toBe(8);
  expect(readConfig({ WORKER_CONCURRENCY: '1' }, '/tmp').WORKER_CONCURRENCY).toBe(1);
  expect(readConfig({ WORKER_CONCURRENCY: '100' }, '/tmp').WORKER_CONCURRENCY).toBe(100);
  for (const bad of ['0', '101', '2.5']) expect(() => readConfig({ WORKER_CONCURRENCY: bad }, '/tmp'), bad).toThrow(/WORKER_CONCURRENCY/);
});
