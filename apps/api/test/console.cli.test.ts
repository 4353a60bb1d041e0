import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { createTestDatabase } from '@hm/db/testing';
import { runConsole, spawnTs } from './cli.js';
import pg from 'pg';

/** The operator console as an operator runs it: a process, JSON on stdout, problems on stderr. */
let env: Record<string, string>;
let dir: string;
const cli = (...args: string[]) => runConsole(args, env);
const file = (name: string, content: unknown) => {
  const p = path.join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
};

beforeAll(async () => {
  env = { DATABASE_URL: await createTestDatabase(inject('adminDatabaseUrl')), API_MODE: 'test', INIT_CWD: '' };
  dir = mkdtempSync(path.join(tmpdir(), 'hm-cli-'));
});

describe('console CLI', () => {
  test('doctor: a command of one word; on a test deployment it prints what it lacks for live, each with a fix, and exits 1', async () => {
    const r = await cli('doctor');
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ mode: 'test', ready: false, summary: expect.stringContaining('this test deployment lacks them for live') });
    const failed = Object.fromEntries(report.checks.filter((c: { ok: boolean }) => !c.ok).map((c: { check: string; fix: string }) => [c.check, c.fix]));
    expect(Object.keys(failed)).toEqual(expect.arrayContaining(['stripe_key', 'mail', 'images', 'api_url', 'database_role']));
    expect(failed.stripe_key).toMatch(/STRIPE_SECRET_KEY/);
    for (const fix of Object.values(failed)) expect(fix).not.toContain('\n');
    const help = await cli('doctor', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^doctor — The go-live check/);
    const bad = await cli('doctor', '--loud');
    expect(bad.code).toBe(2);
  }, 60_000);

  test('marketplace create prints the marketplace and keys shown once', async () => {
    const r = await cli('marketplace', 'create', '--name', 'Loppis', '--slug', 'loppis', '--currencies', 'SEK,EUR', '--locales', 'sv,en', '--storefront-url', 'https://loppis.example');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.marketplace).toMatchObject({ slug: 'loppis', currencies: ['SEK', 'EUR'], locales: ['sv', 'en'], storefront_url: 'https://loppis.example' });
    expect(out.keys.secret).toMatch(/^sk_test_[A-Za-z0-9_-]{43}$/);
    expect(out.keys.publishable).toMatch(/^pk_test_[A-Za-z0-9_-]{43}$/);
    const again = await cli('marketplace', 'create', '--name', 'Loppis', '--slug', 'loppis', '--currencies', 'SEK', '--locales', 'sv', '--storefront-url', 'https://loppis.example');
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr)).toMatchObject({ status: 409, code: 'conflict' });
  }, 30_000);

  test('invalid flags: every problem at once as a problem on stderr, nothing on stdout', async () => {
    const r = await cli('marketplace', 'create', '--name', 'X', '--slug', 'Bad Slug', '--currencies', 'SEK,XXX', '--locales', 'en,en', '--storefront-url', 'https://x.example');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const p = JSON.parse(r.stderr);
    expect(p).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(p.errors).toEqual([
      { location: 'flag.slug', message: 'Lower-case letters, digits and single hyphens.', value: 'Bad Slug' },
      { location: 'flag.currencies.1', message: 'Must be an ISO 4217 currency code in capitals, e.g. EUR.', value: 'XXX' },
    ]);
    const unknown = await cli('marketplace', 'explode');
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stderr).detail).toMatch(/Unknown command "marketplace explode"/);
  }, 30_000);

  test('marketplace update validates the settings file as a whole', async () => {
    const bad = await cli('marketplace', 'update', '--marketplace', 'loppis', '--file', file('bad.json', { listings: { min_images: 1, require_approval: false, require_category: false, required_terms: ['brand'], valuations: false }, color: 'red' }));
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr).errors.map((e: { location: string }) => e.location)).toEqual(['file.color']);
    const cross = await cli('marketplace', 'update', '--marketplace', 'loppis', '--file', file('cross.json', { listings: { min_images: 1, require_approval: false, require_category: false, required_terms: ['brand'], valuations: false } }));
    expect(JSON.parse(cross.stderr).errors).toEqual([{ location: 'file.listings.required_terms.0', message: `"brand" is not one of the marketplace's term kinds.`, value: 'brand' }]);
    const ok = await cli('marketplace', 'update', '--marketplace', 'loppis', '--file', file('ok.json', {
      term_kinds: [{ key: 'brand', names: { sv: 'Märke', en: 'Brand' } }],
      listings: { min_images: 2, require_approval: true, require_category: false, required_terms: ['brand'], valuations: true },
      shipping: { currency: 'SEK', sizes: [{ key: 's', name: 'Small' }], zones: [{ key: 'se', name: 'Sweden', countries: ['SE'] }], delivery: { std: { s: { se: 4900 } } }, options: [{ key: 'std', name: 'Standard' }] },
      commission_percent: 12.5,
    }));
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).marketplace).toMatchObject({ commission_percent: 12.5, listings: { min_images: 2, required_terms: ['brand'] } });
  }, 30_000);

  test('keys create, list and revoke', async () => {
    const created = JSON.parse((await cli('keys', 'create', '--marketplace', 'loppis', '--kind', 'publishable')).stdout);
    expect(created.token).toMatch(/^pk_test_/);
    expect(created.key.hint).toBe(`pk_test_…${created.token.slice(-4)}`);
    const list = JSON.parse((await cli('keys', 'list', '--marketplace', 'loppis')).stdout);
    expect(list.items).toHaveLength(3);
    expect(JSON.stringify(list)).not.toContain(created.token);
    const revoked = JSON.parse((await cli('keys', 'revoke', '--key', created.token)).stdout);
    expect(revoked.key.revoked_at).not.toBeNull();
    const twice = await cli('keys', 'revoke', '--key', created.key.id);
    expect(JSON.parse(twice.stderr)).toMatchObject({ status: 409 });
  }, 30_000);

  test('categories and terms import are upserts by slug; loops and unknown parents are refused', async () => {
    const cats = [
      { slug: 'home', names: { sv: 'Hem', en: 'Home' } },
      { slug: 'lamps', names: { sv: 'Lampor' }, parent: 'home', position: 2 },
    ];
    const first = JSON.parse((await cli('categories', 'import', '--marketplace', 'loppis', '--file', file('c.json', cats))).stdout);
    expect(first).toEqual({ created: 2, updated: 0 });
    const second = JSON.parse((await cli('categories', 'import', '--marketplace', 'loppis', '--file', file('c.json', cats))).stdout);
    expect(second).toEqual({ created: 0, updated: 2 });
    const loop = await cli('categories', 'import', '--marketplace', 'loppis', '--file', file('loop.json', [{ slug: 'home', names: { sv: 'Hem' }, parent: 'lamps' }, { slug: 'x', names: { sv: 'X' }, parent: 'nowhere' }]));
    const errors = JSON.parse(loop.stderr).errors.map((e: { location: string; message: string }) => `${e.location}: ${e.message}`);
    expect(errors).toEqual(['file.0.parent: Parent chain of "home" loops back through "home".', 'file.1.parent: No category "nowhere" in the file or the marketplace.']);
    const terms = await cli('terms', 'import', '--marketplace', 'loppis', '--file', file('t.json', [{ kind: 'brand', slug: 'ikea', names: { sv: 'IKEA' } }, { kind: 'size', slug: 'xl', names: { de: 'XL' } }]));
    expect(JSON.parse(terms.stderr).errors.map((e: { location: string }) => e.location)).toEqual(['file.1.kind', 'file.1.names.de', 'file.1.names']);
    const okTerms = await cli('terms', 'import', '--marketplace', 'loppis', '--file', file('t2.json', [{ kind: 'brand', slug: 'ikea', names: { sv: 'IKEA' } }]));
    expect(JSON.parse(okTerms.stdout)).toEqual({ created: 1, updated: 0 });
  }, 60_000);

  test('sites create and rates set', async () => {
    const site = JSON.parse(
      (await cli('sites', 'create', '--marketplace', 'loppis', '--file', file('s.json', { kind: 'warehouse', name: 'Lager', line1: 'Väg 1', postal_code: '12345', city: 'Solna', country: 'SE', active: true, buyer_pickup: false }))).stdout,
    );
    expect(site.site).toMatchObject({ kind: 'warehouse', name: 'Lager', active: true });
    // opening hours per language from the command line: a text keeps its commas
    const hours = await cli('sites', 'set-opening-hours', '--marketplace', 'loppis', '--id', site.site.id, '--opening-hours', 'mån–fre 10–18, lör 10–14', '--opening-hours-by-language', 'sv=mån–fre 10–18, lör 10–14,en=Mon–Fri 10–18, Sat 10–14');
    expect(hours.code, hours.stderr).toBe(0);
    expect(JSON.parse(hours.stdout).site).toMatchObject({ opening_hours: 'mån–fre 10–18, lör 10–14', opening_hours_by_language: { sv: 'mån–fre 10–18, lör 10–14', en: 'Mon–Fri 10–18, Sat 10–14' } });
    const wrongLanguage = await cli('sites', 'set-opening-hours', '--marketplace', 'loppis', '--id', site.site.id, '--opening-hours-by-language', 'de=Mo–Fr 10–18');
    expect(JSON.parse(wrongLanguage.stderr)).toMatchObject({ status: 422, errors: [{ location: 'flag.opening-hours-by-language.de' }] });
    const rates = await cli('rates', 'set', '--marketplace', 'loppis', '--date', '2026-11-22', '--base', 'EUR', '--rates', 'SEK=11.52,USD=1.05');
    expect(JSON.parse(rates.stdout).items).toEqual([
      { date: '2026-11-22', base: 'EUR', quote: 'SEK', rate: 11.52 },
      { date: '2026-11-22', base: 'EUR', quote: 'USD', rate: 1.05 },
    ]);
    const bad = await cli('rates', 'set', '--marketplace', 'loppis', '--date', '2026-13-01', '--base', 'EUR', '--rates', 'EUR=1,SEK=-2');
    expect(JSON.parse(bad.stderr).errors.map((e: { location: string }) => e.location)).toEqual(['flag.date', 'flag.rates.SEK']);
    const missing = await cli('rates', 'set', '--marketplace', 'nope', '--date', '2026-11-22', '--base', 'EUR', '--rates', 'SEK=1');
    expect(JSON.parse(missing.stderr)).toMatchObject({ status: 404 });
  }, 60_000);

  test('newsletter export prints the sign-ups as JSON; an unknown marketplace is 404', async () => {
    const out = await cli('newsletter', 'export', '--marketplace', 'loppis');
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ contact_list: { provider: 'local', audience_id: null }, items: [] });
    const missing = await cli('newsletter', 'export', '--marketplace', 'nope');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr)).toMatchObject({ status: 404 });
  });

  test('users create (welcome email queued for the worker), block and unblock', async () => {
    const made = await cli('users', 'create', '--marketplace', 'loppis', '--email', 'Tove@Example.com', '--first-name', 'Tove', '--locale', 'sv');
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout).user).toMatchObject({ email: 'Tove@Example.com', first_name: 'Tove', has_password: false, email_verified: false, locale: 'sv' });
    const again = await cli('users', 'create', '--marketplace', 'loppis', '--email', 'tove@example.com');
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr)).toMatchObject({ status: 409, code: 'email_in_use' });
    const badLocale = await cli('users', 'create', '--marketplace', 'loppis', '--email', 'x@example.com', '--locale', 'fi');
    expect(JSON.parse(badLocale.stderr)).toMatchObject({ status: 422, errors: [{ location: 'flag.locale' }] });
    const blocked = await cli('users', 'block', '--marketplace', 'loppis', '--email', 'TOVE@example.com');
    expect(JSON.parse(blocked.stdout).user).toMatchObject({ email: 'Tove@Example.com', blocked: true });
    const unblocked = await cli('users', 'unblock', '--marketplace', 'loppis', '--email', 'tove@example.com');
    expect(JSON.parse(unblocked.stdout).user.blocked).toBe(false);
    const missing = await cli('users', 'block', '--marketplace', 'loppis', '--email', 'nobody@example.com');
    expect(JSON.parse(missing.stderr)).toMatchObject({ status: 404 });
  });

  test('`npm run worker` alone sends the queued welcome email to the local mailbox, then stops on SIGINT', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hm-worker-'));
    const worker = spawnTs('src/worker.ts', { ...env, DATA_DIR: dataDir });
    let output = '';
    worker.stderr!.on('data', (d) => (output += d));
    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    try {
      const deadline = Date.now() + 20_000;
      let status: string | undefined;
      while (Date.now() < deadline) {
        const { rows } = await db.query(`select status from emails where lower("to") = 'tove@example.com' and template = 'welcome'`);
        status = rows[0]?.status;
        if (status === 'sent') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(status, output).toBe('sent');
      const files = readdirSync(path.join(dataDir, 'mailbox', 'test'));
      expect(files.filter((f) => f.endsWith('.eml'))).toHaveLength(1);
    } finally {
      await db.end();
      const exited = new Promise<number | null>((r) => worker.once('exit', (code) => r(code)));
      worker.kill('SIGINT');
      expect(await exited).toBe(0);
    }
  });

  test('listings commands: numbers and JSON flags are checked as flags; unknown listings are 404', async () => {
    const missing = await cli('listings', 'approve', '--id', '00000000-0000-4000-8000-000000000000');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr)).toMatchObject({ status: 404, detail: 'This listing was not found.' });
    const badAmount = await cli('listings', 'offer', '--id', '00000000-0000-4000-8000-000000000000', '--amount', '12.5', '--currency', 'SEK', '--note', 'x');
    expect(JSON.parse(badAmount.stderr)).toMatchObject({ status: 422, errors: [{ location: 'flag.amount' }] });
    const badSchedule = await cli('listings', 'offer', '--id', '00000000-0000-4000-8000-000000000000', '--amount', '100', '--currency', 'SEK', '--schedule', '[{months:2}]');
    expect(JSON.parse(badSchedule.stderr)).toMatchObject({ status: 422, errors: [{ location: 'flag.schedule' }] });
    const badPercent = await cli('listings', 'set-commission', '--id', '00000000-0000-4000-8000-000000000000', '--percent', 'lots');
    expect(JSON.parse(badPercent.stderr)).toMatchObject({ status: 422, errors: [{ location: 'flag.percent' }] });
    const badCustody = await cli('listings', 'custody', '--id', 'nope', '--custody', 'elsewhere');
    expect(JSON.parse(badCustody.stderr).errors.map((e: { location: string }) => e.location).sort()).toEqual(['flag.custody', 'flag.id']);
  });

  test('payouts reconcile and orders list --chargeback (a bare boolean flag means true)', async () => {
    const r = await cli('payouts', 'reconcile', '--marketplace', 'loppis');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, checked: 0, open: 0, mismatches: [], paid_twice: [], failed_bank_payouts: [] });
    const listed = await cli('orders', 'list', '--marketplace', 'loppis', '--chargeback');
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({ items: [] });
    const bad = await cli('orders', 'list', '--marketplace', 'loppis', '--chargeback', 'maybe');
    expect(JSON.parse(bad.stderr)).toMatchObject({ status: 422, errors: [{ location: 'flag.chargeback' }] });
    // the back office's search by party and listing is the same filter
    const byBuyer = await cli('orders', 'list', '--marketplace', 'loppis', '--buyer', 'Nobody@Example.com', '--listing', '00000000-0000-4000-8000-000000000000');
    expect(byBuyer.code, byBuyer.stderr).toBe(0);
    expect(JSON.parse(byBuyer.stdout)).toEqual({ items: [] });
    const badParty = await cli('orders', 'list', '--marketplace', 'loppis', '--seller', 'nobody');
    expect(JSON.parse(badParty.stderr)).toMatchObject({ status: 422, errors: [{ location: 'flag.seller' }] });
    const unknown = await cli('payouts', 'reconcile', '--marketplace', 'nowhere');
    expect(JSON.parse(unknown.stderr)).toMatchObject({ status: 404 });
  }, 30_000);
  test('media upload reads the image file; pages put lists every problem in the file; publish and preview-link', async () => {
    const withData = (...args: string[]) => runConsole(args, { ...env, DATA_DIR: dir });
    const { default: sharp } = await import('sharp');
    const png = path.join(dir, 'hall.png');
    writeFileSync(png, await sharp({ create: { width: 600, height: 400, channels: 3, background: '#336699' } }).png().toBuffer());
    const up = await withData('media', 'upload', '--marketplace', 'loppis', '--file', png, '--alt', 'The hall');
    expect(up.code, up.stderr).toBe(0);
    const image = JSON.parse(up.stdout).image;
    expect(image).toMatchObject({ alt: 'The hall', width: 600, height: 400 });
    const alts = await withData('media', 'set-alt', '--marketplace', 'loppis', '--id', image.id, '--alts', 'sv=Hallen, sedd från entrén,en=The hall, seen from the door');
    expect(alts.code, alts.stderr).toBe(0);
    expect(JSON.parse(alts.stdout).image).toMatchObject({ id: image.id, alt: 'The hall', alts: { sv: 'Hallen, sedd från entrén', en: 'The hall, seen from the door' } });
    expect(image.urls.xlarge).toMatch(new RegExp(`/v1/media/${image.id}/xlarge\\.jpg$`));
    const notImage = await withData('media', 'upload', '--marketplace', 'loppis', '--file', file('not-an-image.txt', 'hello'), '--alt', 'x');
    expect(JSON.parse(notImage.stderr)).toMatchObject({ status: 415, code: 'unsupported_media_type' });

    const bad = await withData('pages', 'put', '--marketplace', 'loppis', '--slug', 'home', '--locale', 'sv', '--file', file('bad-page.json', { title: 'Hem', description: '', blocks: [{ id: 'x', type: 'links', links: [] }, { id: 'x', type: 'banner', image_id: '00000000-0000-4000-8000-000000000000' }] }));
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr).errors.map((e: { location: string }) => e.location)).toEqual(['file.blocks.0.links', 'file.blocks.1.id', 'file.blocks.1.image_id']);

    const good = file('page.json', { title: 'Hem', description: 'Välkommen.', blocks: [{ id: 'hero', type: 'hero', heading: 'Välkommen', image_id: image.id }] });
    const put = await withData('pages', 'put', '--marketplace', 'loppis', '--slug', 'home', '--locale', 'sv', '--file', good);
    expect(put.code, put.stderr).toBe(0);
    expect(JSON.parse(put.stdout).page).toMatchObject({ slug: 'home', locale: 'sv', published: false, blocks: 1 });
    const published = await withData('pages', 'publish', '--marketplace', 'loppis', '--slug', 'home', '--locale', 'sv');
    expect(JSON.parse(published.stdout).page).toMatchObject({ published: true });
    const link = await withData('pages', 'preview-link', '--marketplace', 'loppis', '--slug', 'home', '--locale', 'sv');
    expect(JSON.parse(link.stdout).preview.url).toMatch(/^https:\/\/loppis\.example\/sv\/preview\/home\?token=pv_/);
    const list = await withData('pages', 'list', '--marketplace', 'loppis');
    expect(JSON.parse(list.stdout).items).toEqual([expect.objectContaining({ slug: 'home', locale: 'sv', published: true, draft_differs: false })]);
  }, 60_000);

  test('webhooks create prints the endpoint id and its whsec_ secret once; rotate-secret a new one; list never shows them', async () => {
    const withData = (...args: string[]) => runConsole(args, { ...env, DATA_DIR: dir });
    const made = await withData('marketplace', 'create', '--name', 'Hooks', '--slug', 'hooks', '--currencies', 'SEK', '--locales', 'sv', '--storefront-url', 'https://hooks.example');
    expect(made.code, made.stderr).toBe(0);
    const created = await withData('webhooks', 'create', '--marketplace', 'hooks', '--url', 'http://localhost:8080/hooks', '--events', 'order.updated,payout.updated');
    expect(created.code, created.stderr).toBe(0);
    const out = JSON.parse(created.stdout);
    expect(out.endpoint).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), url: 'http://localhost:8080/hooks', events: ['order.updated', 'payout.updated'], status: 'enabled' });
    expect(out.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const rotated = await withData('webhooks', 'rotate-secret', '--marketplace', 'hooks', '--id', out.endpoint.id);
    const fresh = JSON.parse(rotated.stdout).secret;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(out.secret);
    const list = await withData('webhooks', 'list', '--marketplace', 'hooks');
    expect(JSON.parse(list.stdout).items).toEqual([expect.objectContaining({ id: out.endpoint.id, previous_secret_signs_until: expect.any(String) })]);
    expect(list.stdout).not.toContain('whsec_');
    const bad = await withData('webhooks', 'create', '--marketplace', 'hooks', '--url', 'http://localhost:8080/hooks', '--events', 'order.paid');
    expect(JSON.parse(bad.stderr)).toMatchObject({ status: 422, errors: [{ location: 'flag.events', value: 'order.paid' }] });
  }, 60_000);
  // last: its invitation email would be in the worker test's mailbox
  test('operators create prints one line with the invitation link (token=…); its use is in the audit trail as `cli`', async () => {
    const r = await cli('operators', 'create', '--marketplace', 'loppis', '--email', 'boss@loppis.example', '--role', 'admin');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invitation link \(valid 7 days\): http:\/\/\S+\/invitations\/accept\?token=opi_[A-Za-z0-9_-]{43}$/);
    const list = JSON.parse((await cli('operators', 'list', '--marketplace', 'loppis')).stdout);
    expect(list.items).toEqual([expect.objectContaining({ email: 'boss@loppis.example', role: 'admin', totp_enabled: false, invitation_pending: true })]);
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query(`select actor_type, actor_id, action, target_type, data from audit_entries order by created_at, id`);
      // every write of the command line is in the trail as `cli` (the earlier tests blocked and unblocked a user)
      expect(rows.filter((r) => r.action === 'operator.invite')).toEqual([{ actor_type: 'cli', actor_id: null, action: 'operator.invite', target_type: 'operator', data: { email: 'boss@loppis.example', role: 'admin' } }]);
      expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['user.block', 'user.unblock', 'operator.invite']));
      expect(rows.every((r) => r.actor_type === 'cli')).toBe(true);
    } finally {
      await client.end();
    }
    const bad = await cli('operators', 'create', '--marketplace', 'loppis', '--email', 'nope', '--role', 'owner');
    expect(JSON.parse(bad.stderr).errors.map((e: { location: string }) => e.location)).toEqual(['flag.email', 'flag.role']);
  }, 60_000);

});
