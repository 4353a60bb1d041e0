import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { consoleCaller } from '@hm/contract/console';
import { consoleContext, type DeploymentFacts, type Ports } from '@hm/domain/core';
import type { DoctorCheck } from '@hm/domain/doctor';
import { resendMailer } from '@hm/domain/emails';
import { s3ImageStore } from '@hm/domain/images';
import { eventTypesOf, STRIPE_API_VERSION, stripePayments } from '@hm/domain/payments';
import { startResendTestServer, startS3TestServer, startStripeTestServer, type ResendTestServer, type S3TestServer, type StripeTestServer, stripeRequestProblems } from '@hm/domain/testing';
import { startWorker } from '@hm/jobs/worker';
import { makeMarketplace, startHarness, type Harness } from './harness.js';

/**
 * The go-live check (`console doctor`) against the local servers the adapters' contract tests use:
 * the Stripe-speaking server (platform account, Connect, webhook endpoints), the Resend-speaking one
 * (sending domains) and s3rver (a probe object), on a database the app owns without being a
 * superuser, with a real worker beating its heartbeat. Each check is broken and mended in turn.
 */
const API_URL = 'https://api.shop.example';
let stripe: StripeTestServer;
let resend: ResendTestServer;
let s3: S3TestServer;
let h: Harness;
const ready: DeploymentFacts = { mailFrom: 'orders@shop.example', embeddedDatabase: false, stripeWebhookSecret: true, stripeConnectWebhookSecret: true };

beforeAll(async () => {
  [stripe, resend, s3] = await Promise.all([startStripeTestServer({ apiKey: `sk_live_${crypto.randomUUID().replaceAll('-', '')}` }), startResendTestServer(), startS3TestServer()]);
  h = await startHarness({
    mode: 'live',
    restrictedOwner: true,
    payments: stripePayments({ secretKey: stripe.apiKey, apiBase: stripe.url }),
    ports: () => ({
      mailer: resendMailer({ apiKey: resend.apiKey, baseUrl: resend.url }),
      images: s3ImageStore({ bucket: s3.bucket, endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }),
    }),
  });
  await makeMarketplace(h, 'shop');
});
// every request the Stripe adapter sent, checked against Stripe's OpenAPI document (not the endpoints this
// test registers itself, as the Dashboard would: `refund.failed` is newer than the vendored spec's event list)
afterAll(() => expect(stripeRequestProblems(stripe.requests.filter((r) => !(r.method === 'POST' && r.path === '/v1/webhook_endpoints')))).toEqual([]));
afterAll(async () => {
  await h.close();
  await Promise.all([stripe.close(), resend.close(), s3.close()]);
});

const doctor = (opts: { deployment?: DeploymentFacts; ports?: Partial<Ports>; harness?: Harness; apiUrl?: string } = {}) => {
  const on = opts.harness ?? h;
  return consoleCaller(consoleContext({ orm: on.orm, mode: on.mode, ports: { ...on.ports, ...opts.ports }, publicUrl: opts.apiUrl ?? API_URL, deployment: opts.deployment ?? ready }, 'doctor')).doctor({});
};
const byCheck = (checks: DoctorCheck[], scope = 'deployment') => Object.fromEntries(checks.filter((c) => c.scope === scope).map((c) => [c.check, c]));
const failing = (checks: DoctorCheck[]) => checks.filter((c) => !c.ok).map((c) => `${c.scope}/${c.check}`);

/** Registers a webhook endpoint through Stripe's API, as the dashboard does (arrays as Stripe's form encoding sends them). */
async function addEndpoint(url: string, events: string[], opts: { connect?: boolean; apiVersion?: string } = {}) {
  const form = new URLSearchParams({ url, ...(opts.connect && { connect: 'true' }), ...(opts.apiVersion && { api_version: opts.apiVersion }) });
  events.forEach((e, i) => form.append(`enabled_events[${i}]`, e));
  const res = await fetch(`${stripe.url}/v1/webhook_endpoints`, { method: 'POST', headers: { authorization: `Bearer ${stripe.apiKey}`, 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  expect(res.status, await res.clone().text()).toBe(200);
}

describe('console doctor: a live deployment, check by check', () => {
  test('what is missing is named with a one-line fix; once it is all there the deployment is ready', async () => {
    // nothing registered yet, no sending domain, no worker
    let report = await doctor();
    expect(report.ready).toBe(false);
    expect(failing(report.checks)).toEqual(['deployment/stripe_webhook_platform', 'deployment/stripe_webhook_connect', 'deployment/mail', 'deployment/worker']);
    let c = byCheck(report.checks);
    expect(c.stripe_key).toMatchObject({ ok: true, found: 'STRIPE_SECRET_KEY is a live key (sk_live_)' });
    expect(c.stripe_platform_account).toMatchObject({ ok: true, found: expect.stringMatching(/^platform account acct_\w+ \(SE\): charges and payouts enabled$/) });
    expect(c.stripe_connect!.ok).toBe(true);
    expect(c.stripe_webhook_platform).toMatchObject({ found: `no webhook endpoint at ${API_URL}/webhooks/stripe`, fix: expect.stringContaining(`API version ${STRIPE_API_VERSION}, events ${eventTypesOf('platform').join(', ')}; put its signing secret in STRIPE_WEBHOOK_SECRET`) });
    expect(c.stripe_webhook_connect).toMatchObject({ found: expect.stringContaining(`no Connect webhook endpoint ("Events on Connected accounts") at ${API_URL}/webhooks/stripe/connect`), fix: expect.stringContaining('STRIPE_CONNECT_WEBHOOK_SECRET') });
    expect(c.mail).toMatchObject({ found: 'Resend has no sending domain shop.example (MAIL_FROM orders@shop.example)', fix: expect.stringContaining('add shop.example in Resend') });
    expect(c.worker).toMatchObject({ found: 'no worker is running against this database (none has a heartbeat)' });
    expect(c.images).toMatchObject({ ok: true, found: 'the S3 bucket took a probe object, gave it back and deleted it' });
    expect(c.database_role).toMatchObject({ ok: true, found: expect.stringMatching(/^the app connects as hm_owner_\w+ \(no superuser, no BYPASSRLS\): row-level security is in force$/) });
    expect(c.migrations).toMatchObject({ ok: true, found: expect.stringMatching(/^all \d+ migrations applied \(latest Migration\d+_\w+\)$/) });
    expect(c.api_url!.ok).toBe(true);
    expect(c.database!.ok).toBe(true);
    expect(byCheck(report.checks, 'marketplace shop').storefront_url).toMatchObject({ ok: true, found: 'storefront_url https://shop.example is https' });
    for (const check of report.checks) expect(check.ok ? check.fix : check.fix?.split('\n')).toEqual(check.ok ? undefined : [expect.any(String)]);

    // a platform endpoint with an event missing and another API version; the Connect events sent to a platform endpoint
    await addEndpoint(`${API_URL}/webhooks/stripe`, eventTypesOf('platform').filter((t) => t !== 'charge.refunded'), { apiVersion: '2025-01-01' });
    await addEndpoint(`${API_URL}/webhooks/stripe/connect`, ['account.updated'], { apiVersion: STRIPE_API_VERSION });
    resend.addDomain('shop.example', 'pending');
    c = byCheck((await doctor()).checks);
    expect(c.stripe_webhook_platform).toMatchObject({
      ok: false,
      found: `webhook endpoint at ${API_URL}/webhooks/stripe: it does not send charge.refunded; its API version is 2025-01-01, not ${STRIPE_API_VERSION}`,
      fix: expect.stringMatching(/^add the events charge\.refunded to it; make a new endpoint at the same URL with API version/),
    });
    expect(c.stripe_webhook_connect).toMatchObject({ ok: false, found: `the endpoint at ${API_URL}/webhooks/stripe/connect is not a Connect endpoint` });
    expect(c.mail).toMatchObject({ ok: false, found: "Resend's domain shop.example is pending, not verified" });

    // mended: both endpoints as they should be, the domain verified, a worker running
    await addEndpoint(`${API_URL}/webhooks/stripe`, eventTypesOf('platform'), { apiVersion: STRIPE_API_VERSION });
    await addEndpoint(`${API_URL}/webhooks/stripe/connect`, ['*'], { connect: true, apiVersion: STRIPE_API_VERSION });
    resend.addDomain('shop.example', 'verified');
    const worker = await startWorker({ connectionString: h.databaseUrl, deps: { orm: h.orm, mode: 'live', mailFrom: ready.mailFrom, ports: h.ports }, concurrency: 1 });
    try {
      report = await doctor();
      expect(failing(report.checks)).toEqual([]);
      expect(report).toMatchObject({ mode: 'live', ready: true, summary: `Ready for live: all ${report.checks.length} checks pass.` });
      expect(byCheck(report.checks).worker).toMatchObject({ ok: true, found: '1 worker(s) alive (a heartbeat within 30 s)' });
      // the secrets of the endpoints must be in the deployment too
      c = byCheck((await doctor({ deployment: { ...ready, stripeConnectWebhookSecret: false } })).checks);
      expect(c.stripe_webhook_connect).toMatchObject({ ok: false, found: expect.stringMatching(/STRIPE_CONNECT_WEBHOOK_SECRET is not set$/), fix: expect.stringContaining('put its signing secret in STRIPE_CONNECT_WEBHOOK_SECRET') });
    } finally {
      await worker.stop();
    }
    // a stopped worker takes its heartbeat with it; one that crashed leaves an old one
    expect(byCheck((await doctor()).checks).worker).toMatchObject({ ok: false, found: 'no worker is running against this database (none has a heartbeat)' });
    await h.orm.em.getConnection().execute(`insert into worker_heartbeats (id, host, pid, started_at, beat_at) values (gen_random_uuid(), 'gone', 1, now() - interval '1 hour', now() - interval '31 seconds')`);
    expect(byCheck((await doctor()).checks).worker).toMatchObject({ ok: false, found: expect.stringMatching(/^no worker alive: the last heartbeat was at .* \(a worker that crashed\)$/) });
  }, 60_000);

  test('the platform account, Connect, the bucket and the URLs, each broken in turn', async () => {
    stripe.platform({ payouts_enabled: false });
    stripe.setConnectEnabled(false);
    await h.console.marketplace.update({ marketplace: 'shop', settings: { storefront_url: 'http://shop.example' } });
    try {
      const report = await doctor({
        ports: { images: s3ImageStore({ bucket: 'no-such-bucket', endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }) },
        apiUrl: 'http://api.shop.example',
      });
      const c = byCheck(report.checks);
      expect(c.stripe_platform_account).toMatchObject({ ok: false, found: expect.stringMatching(/charges enabled, payouts not enabled$/), fix: expect.stringContaining('finish activating your Stripe account') });
      expect(c.stripe_connect).toMatchObject({ ok: false, found: expect.stringContaining('signed up for Connect'), fix: 'sign the platform up for Connect in the Stripe dashboard (Connect → Get started)' });
      expect(c.images).toMatchObject({ ok: false, found: expect.stringMatching(/^the s3 store refused to write a probe object: /) });
      expect(c.api_url).toMatchObject({ ok: false, found: 'API_URL http://api.shop.example is not https: browsers, Stripe and email links need https in live' });
      expect(byCheck(report.checks, 'marketplace shop').storefront_url).toMatchObject({ ok: false, fix: expect.stringContaining('--marketplace shop') });
    } finally {
      stripe.platform({ payouts_enabled: true });
      stripe.setConnectEnabled(true);
      await h.console.marketplace.update({ marketplace: 'shop', settings: { storefront_url: 'https://shop.example' } });
    }
  }, 30_000);
});

test('a test deployment on the offline adapters, connecting as a superuser to the embedded database: everything it lacks for live', async () => {
  const local = await startHarness();
  try {
    await makeMarketplace(local, 'demo');
    const report = await doctor({ harness: local, apiUrl: 'http://localhost:4000', deployment: { mailFrom: 'no-reply@localhost', embeddedDatabase: true, stripeWebhookSecret: false, stripeConnectWebhookSecret: false } });
    expect(report).toMatchObject({ mode: 'test', ready: false, summary: expect.stringContaining('this test deployment lacks them for live') });
    const c = byCheck(report.checks);
    expect(c.stripe_key).toMatchObject({ ok: false, found: 'payments use the local sandbox: no real money moves', fix: expect.stringContaining('STRIPE_SECRET_KEY') });
    expect(c.mail).toMatchObject({ ok: false, found: expect.stringContaining('local mailbox'), fix: expect.stringContaining('RESEND_API_KEY') });
    expect(c.images).toMatchObject({ ok: false, fix: expect.stringContaining('S3_BUCKET') });
    expect(c.database).toMatchObject({ ok: false, fix: expect.stringContaining('DATABASE_URL') });
    expect(c.database_role).toMatchObject({ ok: false, found: expect.stringContaining('a superuser'), fix: expect.stringContaining('Row-level security') });
    expect(c.api_url!.ok).toBe(false);
    expect(c.migrations!.ok).toBe(true);
  } finally {
    await local.close();
  }
}, 30_000);
