import { randomUUID } from 'node:crypto';
import { MarketplaceSchema } from '@hm/db/entities';
import { migrationStatus } from '@hm/db/migrate';
import { crossTenantEm, type MikroORM } from '@hm/db/orm';
import type { ApiMode, DeploymentFacts, Ports } from '../core/index.js';
import { originalKey } from '../core/ports/image-store.js';
import { eventTypesOf, STRIPE_WEBHOOK_PATHS, type PaymentsSetup } from '../payments/index.js';
import { connectingRole, workerHeartbeats } from './doctor.queries.js';

/**
 * How often a running worker beats its row of `worker_heartbeats` (@hm/jobs); the go-live check
 * counts a worker alive when its last beat is at most three beats old.
 */
export const WORKER_HEARTBEAT_MS = 10_000;
const ALIVE_WITHIN_SECONDS = (3 * WORKER_HEARTBEAT_MS) / 1000;

/** One line of the go-live check: what was found, and when it is not ready, the fix in one line of plain words. */
export interface DoctorCheck {
  /** `deployment`, or `marketplace <slug>` */
  scope: string;
  check: string;
  ok: boolean;
  found: string;
  fix?: string;
}

export interface DoctorReport {
  mode: ApiMode;
  /** every check passed: ready to take real money */
  ready: boolean;
  summary: string;
  checks: DoctorCheck[];
}

export interface DoctorDeps extends Ports {
  orm: MikroORM;
  mode: ApiMode;
  /** API_URL */
  publicUrl: string;
  deployment: DeploymentFacts;
}

type Check = Omit<DoctorCheck, 'scope'>;
const pass = (check: string, found: string): Check => ({ check, ok: true, found });
const fail = (check: string, found: string, fix: string): Check => ({ check, ok: false, found, fix });

/**
 * The go-live check (`npm run console -- doctor`): everything a deployment needs to take real
 * money, checked against the providers themselves (Stripe's account and webhook endpoints, Resend's
 * domains, the bucket) and the database, then each marketplace. The checks are always those of a
 * live deployment: on a test deployment the report is what it still lacks for live.
 */
export async function runDoctor(deps: DoctorDeps): Promise<DoctorReport> {
  const apiUrl = deps.publicUrl.replace(/\/+$/, '');
  const em = crossTenantEm(deps.orm);
  const [stripe, mail, images, database, marketplaces] = await Promise.all([
    stripeChecks(deps, apiUrl),
    mailCheck(deps),
    imagesCheck(deps),
    databaseChecks(deps),
    em.find(MarketplaceSchema, {}, { orderBy: { slug: 'asc' } }),
  ]);
  const deployment = [...stripe, mail, images, httpsCheck('api_url', 'API_URL', apiUrl, 'set API_URL to the https address the API is reached at (behind your TLS proxy)'), ...database];
  const checks: DoctorCheck[] = [
    ...deployment.map((c) => ({ scope: 'deployment', ...c })),
    ...marketplaces.map((m) => ({
      scope: `marketplace ${m.slug}`,
      ...(m.storefrontUrl
        ? httpsCheck('storefront_url', 'storefront_url', m.storefrontUrl, `npm run console -- marketplace update --marketplace ${m.slug} --file settings.json with {"storefront_url": "https://…"}`)
        : fail('storefront_url', 'no storefront_url: emails would link nowhere', `npm run console -- marketplace update --marketplace ${m.slug} --file settings.json with {"storefront_url": "https://…"}`)),
    })),
  ];
  const failed = checks.filter((c) => !c.ok).length;
  const ready = failed === 0;
  const summary = ready
    ? `Ready for live: all ${checks.length} checks pass.`
    : `${failed} of ${checks.length} checks fail${deps.mode === 'test' ? ': this test deployment lacks them for live' : ''}. Each failed check says how to fix it.`;
  return { mode: deps.mode, ready, summary, checks };
}

function httpsCheck(check: string, name: string, url: string, fix: string): Check {
  return url.startsWith('https://') ? pass(check, `${name} ${url} is https`) : fail(check, `${name} ${url} is not https: browsers, Stripe and email links need https in live`, fix);
}

async function stripeChecks(deps: DoctorDeps, apiUrl: string): Promise<Check[]> {
  const names = ['stripe_key', 'stripe_platform_account', 'stripe_connect', 'stripe_webhook_platform', 'stripe_webhook_connect'];
  if (!deps.payments.inspect) {
    const notStripe = fail('stripe_key', 'payments use the local sandbox: no real money moves', 'set STRIPE_SECRET_KEY to your sk_live_ key (and the two webhook secrets, below)');
    return [notStripe, ...names.slice(1).map((n) => fail(n, 'not checked: Stripe is not configured', 'set STRIPE_SECRET_KEY first'))];
  }
  let setup: PaymentsSetup;
  try {
    setup = await deps.payments.inspect();
  } catch (e) {
    return names.map((n) => fail(n, `Stripe could not be asked: ${(e as Error).message}`, 'check STRIPE_SECRET_KEY and that Stripe is reachable from here'));
  }
  const key =
    setup.keyMode === 'live'
      ? pass('stripe_key', 'STRIPE_SECRET_KEY is a live key (sk_live_)')
      : fail('stripe_key', 'STRIPE_SECRET_KEY is a test key (sk_test_): no real money moves', 'a live deployment uses your sk_live_ key (Stripe dashboard → Developers → API keys)');
  const p = setup.platform;
  const platform =
    'error' in p
      ? fail('stripe_platform_account', `the platform account could not be read: ${p.error}`, 'check that STRIPE_SECRET_KEY is your platform account’s secret key')
      : p.chargesEnabled && p.payoutsEnabled
        ? pass('stripe_platform_account', `platform account ${p.id} (${p.country ?? 'no country'}): charges and payouts enabled`)
        : fail(
            'stripe_platform_account',
            `platform account ${p.id} (${p.country ?? 'no country'}): charges ${p.chargesEnabled ? 'enabled' : 'not enabled'}, payouts ${p.payoutsEnabled ? 'enabled' : 'not enabled'}`,
            'finish activating your Stripe account (business details and bank account) in the Stripe dashboard',
          );
  const connect = setup.connect.enabled
    ? pass('stripe_connect', 'Connect is enabled: sellers’ connected accounts can be made')
    : fail('stripe_connect', `Connect is not enabled: ${setup.connect.why}`, 'sign the platform up for Connect in the Stripe dashboard (Connect → Get started)');
  return [key, platform, connect, endpointCheck('platform', setup, apiUrl, deps.deployment.stripeWebhookSecret), endpointCheck('connect', setup, apiUrl, deps.deployment.stripeConnectWebhookSecret)];
}

function endpointCheck(kind: 'platform' | 'connect', setup: PaymentsSetup, apiUrl: string, secretSet: boolean): Check {
  const check = `stripe_webhook_${kind}`;
  const url = `${apiUrl}${STRIPE_WEBHOOK_PATHS[kind]}`;
  const wanted = eventTypesOf(kind);
  const secret = kind === 'platform' ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_CONNECT_WEBHOOK_SECRET';
  const what = kind === 'platform' ? 'webhook endpoint' : 'Connect webhook endpoint ("Events on Connected accounts")';
  const add = `in Stripe (Developers → Webhooks) add a ${what} at ${url}, API version ${setup.apiVersion}, events ${wanted.join(', ')}; put its signing secret in ${secret}`;
  if ('error' in setup.webhookEndpoints) return fail(check, `the webhook endpoints could not be read: ${setup.webhookEndpoints.error}`, add);
  const at = setup.webhookEndpoints.filter((e) => e.url.replace(/\/+$/, '') === url && e.connect === (kind === 'connect'));
  const enabled = at.filter((e) => e.status === 'enabled');
  if (enabled.length === 0) {
    const other = setup.webhookEndpoints.find((e) => e.url.replace(/\/+$/, '') === url);
    const found = at.length ? `the ${what} at ${url} is disabled` : other ? `the endpoint at ${url} is ${other.connect ? 'a Connect endpoint' : 'not a Connect endpoint'}` : `no ${what} at ${url}`;
    return fail(check, found, at.length ? `enable the ${what} at ${url} in Stripe (Developers → Webhooks)` : add);
  }
  // several endpoints at one URL (an old one beside its replacement): the one closest to right is judged
  const judged = enabled
    .map((endpoint) => {
      const missing = endpoint.enabledEvents.includes('*') ? [] : wanted.filter((t) => !endpoint.enabledEvents.includes(t));
      const version = endpoint.apiVersion === setup.apiVersion ? undefined : (endpoint.apiVersion ?? 'the account default');
      return { missing, version, count: missing.length + (version ? 1 : 0) };
    })
    .sort((a, b) => a.count - b.count)[0]!;
  const { missing, version } = judged;
  const problems = [
    ...(missing.length ? [`it does not send ${missing.join(', ')}`] : []),
    ...(version ? [`its API version is ${version}, not ${setup.apiVersion}`] : []),
    ...(secretSet ? [] : [`${secret} is not set`]),
  ];
  if (problems.length === 0) return pass(check, `${what} at ${url}: events ${wanted.join(', ')}, API version ${setup.apiVersion}, secret set`);
  const fixes = [
    ...(missing.length ? [`add the events ${missing.join(', ')} to it`] : []),
    ...(version ? [`make a new endpoint at the same URL with API version ${setup.apiVersion} (an endpoint's version cannot change) and delete this one`] : []),
    ...(secretSet ? [] : [`put its signing secret in ${secret}`]),
  ];
  return fail(check, `${what} at ${url}: ${problems.join('; ')}`, `${fixes.join('; ')} (Stripe: Developers → Webhooks)`);
}

async function mailCheck(deps: DoctorDeps): Promise<Check> {
  const from = deps.deployment.mailFrom;
  const domain = from.slice(from.lastIndexOf('@') + 1);
  if (!deps.mailer.sendingDomain) {
    return fail('mail', 'emails go to the local mailbox (files under DATA_DIR): nobody receives them', `set RESEND_API_KEY, and MAIL_FROM to an address of a domain verified in Resend (now ${from})`);
  }
  try {
    const found = await deps.mailer.sendingDomain(from);
    if (!found) return fail('mail', `Resend has no sending domain ${domain} (MAIL_FROM ${from})`, `add ${domain} in Resend (Domains) and verify its DNS records, or set MAIL_FROM to an address of a domain you verified`);
    if (found.status !== 'verified') return fail('mail', `Resend's domain ${found.name} is ${found.status}, not verified`, `add the DNS records Resend shows for ${found.name} and verify it (Resend → Domains)`);
    return pass('mail', `MAIL_FROM ${from}: Resend's domain ${found.name} is verified`);
  } catch (e) {
    return fail('mail', `Resend could not be asked: ${(e as Error).message}`, 'check RESEND_API_KEY (it needs access to domains) and that Resend is reachable from here');
  }
}

/** A probe object put, read back and deleted: the bucket (or folder) takes photos and gives them back. */
async function imagesCheck(deps: DoctorDeps): Promise<Check> {
  const key = originalKey(randomUUID());
  const body = Buffer.from(`go-live check ${key}`);
  let step = 'write';
  try {
    await deps.images.put(key, body, 'application/octet-stream');
    step = 'read';
    const got = await deps.images.get(key);
    if (!got?.body.equals(body)) return fail('images', `a probe object written to the ${deps.images.name} store did not read back the same`, 'check the bucket’s settings (S3_BUCKET, S3_ENDPOINT, S3_PREFIX)');
    step = 'delete';
    await deps.images.delete([key]);
  } catch (e) {
    return fail('images', `the ${deps.images.name} store refused to ${step} a probe object: ${(e as Error).message}`, 'give S3_ACCESS_KEY_ID put, get and delete rights on S3_BUCKET (and check S3_REGION, S3_ENDPOINT)');
  }
  if (deps.images.name !== 's3') return fail('images', 'photos are kept on this machine’s disk (DATA_DIR/images): lost with the machine, not shared by a second one', 'set S3_BUCKET (and S3_REGION or S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)');
  return pass('images', 'the S3 bucket took a probe object, gave it back and deleted it');
}

async function databaseChecks(deps: DoctorDeps): Promise<Check[]> {
  const em = crossTenantEm(deps.orm);
  const [role, migrations, workers] = await Promise.all([connectingRole(em), migrationStatus(deps.orm), workerHeartbeats(em, ALIVE_WITHIN_SECONDS)]);
  const roleCheck =
    role.superuser || role.bypassRls
      ? fail(
          'database_role',
          `the app connects as ${role.name}, a ${role.superuser ? 'superuser' : 'role with BYPASSRLS'}: a bug could read across marketplaces unchecked`,
          'set DATABASE_URL to a role that is neither a superuser nor BYPASSRLS (README: Row-level security)',
        )
      : pass('database_role', `the app connects as ${role.name} (no superuser, no BYPASSRLS): row-level security is in force`);
  const migrationCheck =
    migrations.pending.length > 0
      ? fail('migrations', `${migrations.pending.length} migration(s) not applied: ${migrations.pending.join(', ')}`, 'start the API once (it applies them), then run the check again')
      : migrations.unknown.length > 0
        ? fail('migrations', `the database has migrations this code does not know (${migrations.unknown.join(', ')}): it was migrated by a newer version`, 'deploy the version that migrated it (or newer)')
        : pass('migrations', `all ${migrations.applied} migrations applied (latest ${migrations.latest ?? 'none'})`);
  const workerCheck =
    workers.alive > 0
      ? pass('worker', `${workers.alive} worker(s) alive (a heartbeat within ${ALIVE_WITHIN_SECONDS} s)`)
      : fail(
          'worker',
          workers.lastBeat ? `no worker alive: the last heartbeat was at ${workers.lastBeat.toISOString()} (a worker that crashed)` : 'no worker is running against this database (none has a heartbeat)',
          'run the API with START_WORKER=true (the default) or `npm run worker`: without one no email is sent and no order timer runs',
        );
  const embedded = deps.deployment.embeddedDatabase
    ? fail('database', 'the embedded PostgreSQL under DATA_DIR: for trying things out, not for live (one machine, no backups)', 'set DATABASE_URL to a managed PostgreSQL with backups')
    : pass('database', 'DATABASE_URL: not the embedded database');
  return [embedded, roleCheck, migrationCheck, workerCheck];
}
