import { beforeAll, describe, expect, test } from 'vitest';
import { ListingSchema } from '@hm/db/entities';
import { crossTenantEm, tenantEm } from '@hm/db/orm';
import { jobSql } from '@hm/db/sql';
import { signUp } from './harness.js';
import { sellingSuite } from './selling.suite.js';

/**
 * Row-level security, the net under the ORM filter and the SQL helper. The app connects here as a
 * database owner that is not a superuser (like many external DATABASE_URLs), so the database checks
 * every path: tenant work as `hm_app`, crossing tenants only where the code says so.
 */
const s = sellingSuite({ restrictedOwner: true });
let openId: string;
let curatedId: string;
let inOpen: string;
let inCurated: string;

beforeAll(async () => {
  openId = s.open.marketplace.id;
  curatedId = s.curated.marketplace.id;
  inOpen = (await s.as(s.open, s.seller)('POST', '/v1/me/listings', { title: 'Open chair' })).json().id;
  inCurated = (await s.as(s.curated, s.curator)('POST', '/v1/me/listings', { title: 'Curated lamp' })).json().id;
});

describe('a query that forgets the marketplace, through the request-scoped entity manager', () => {
  test('select * from listings sees only the scope’s marketplace', async () => {
    const rows = await tenantEm(s.h.orm, openId).execute<{ id: string; marketplace_id: string }[]>('select * from listings');
    expect(rows.map((r) => r.id)).toContain(inOpen);
    expect(rows.map((r) => r.id)).not.toContain(inCurated);
    expect(new Set(rows.map((r) => r.marketplace_id))).toEqual(new Set([openId]));
    const other = await tenantEm(s.h.orm, curatedId).execute<{ id: string }[]>('select id from listings');
    expect(other.map((r) => r.id)).toEqual([inCurated]);
  });

  test('an update by id of another marketplace’s row changes 0 rows', async () => {
    const res = await tenantEm(s.h.orm, openId).execute(`update listings set title = 'hijacked' where id = ?`, [inCurated], 'run');
    expect(res).toMatchObject({ affectedRows: 0 });
    const own = await tenantEm(s.h.orm, openId).execute(`update listings set updated_at = updated_at where id = ?`, [inOpen], 'run');
    expect(own).toMatchObject({ affectedRows: 1 });
    const mine = await s.as(s.curated, s.curator)('GET', `/v1/me/listings/${inCurated}`);
    expect(mine.json().title).toBe('Curated lamp');
  });

  test('moving a row into another marketplace is refused (the policy checks written rows too)', async () => {
    await expect(tenantEm(s.h.orm, openId).execute(`update listings set marketplace_id = ? where id = ?`, [curatedId, inOpen])).rejects.toThrow(/row-level security/);
  });

  test('the ORM filter switched off is still stopped by the database', async () => {
    const all = await tenantEm(s.h.orm, openId).find(ListingSchema, {}, { filters: false });
    expect(all.map((l) => l.marketplaceId)).toEqual(all.map(() => openId));
    expect(all.map((l) => l.id)).toContain(inOpen);
  });

  test('a tenant adds and removes only jobs that carry its marketplace', async () => {
    const add = (marketplaceId: string) =>
      jobSql(tenantEm(s.h.orm, openId))`select hm_add_job('apply-price-drop', ${JSON.stringify({ marketplace_id: marketplaceId })}::json, job_key => ${`rls-probe:${marketplaceId}`})`;
    await expect(add(curatedId)).rejects.toThrow(/must carry it/);
    await add(openId);
    await jobSql(crossTenantEm(s.h.orm))`select hm_add_job('apply-price-drop', ${JSON.stringify({ marketplace_id: curatedId })}::json, job_key => ${`rls-probe:${curatedId}`})`;
    await expect(jobSql(tenantEm(s.h.orm, openId))`select hm_remove_job(${`rls-probe:${curatedId}`})`).rejects.toThrow(/another marketplace/);
    await jobSql(tenantEm(s.h.orm, openId))`select hm_remove_job(${`rls-probe:${openId}`})`;
    await jobSql(tenantEm(s.h.orm, curatedId))`select hm_remove_job(${`rls-probe:${curatedId}`})`;
  });

  test('the connecting role itself sees nothing unless it says it crosses tenants', async () => {
    const [bare] = await s.h.orm.em.getConnection().execute<{ n: number }[]>('select count(*)::int as n from listings');
    expect(bare!.n).toBe(0);
    const everywhere = await crossTenantEm(s.h.orm).find(ListingSchema, {}, { filters: false });
    expect(everywhere.map((l) => l.id)).toEqual(expect.arrayContaining([inOpen, inCurated]));
  });
});

describe('crossing tenants on purpose still works', () => {
  test('the console finds marketplaces and listings across tenants and acts on one', async () => {
    const { items } = await s.h.console.marketplace.list({});
    expect(items.map((m) => m.slug)).toEqual(expect.arrayContaining(['open', 'curated']));
    const got = await s.h.console.listings.get({ id: inCurated });
    expect(got.listing.title).toBe('Curated lamp');
  });

  test('the worker delivers each marketplace’s emails (tenant tasks), and the API answers each with its own', async () => {
    await signUp(s.h, s.open.secret, { email: 'rls-open@example.com' });
    await signUp(s.h, s.curated.secret, { email: 'rls-curated@example.com' });
    await s.h.runJobs();
    const mail = async (key: string) =>
      (await s.h.request({ method: 'GET', url: '/v1/test-helpers/emails?limit=100', key })).json().items.map((e: { to: string }) => e.to) as string[];
    const open = await mail(s.open.secret);
    const curated = await mail(s.curated.secret);
    expect(open).toContain('rls-open@example.com');
    expect(open).not.toContain('rls-curated@example.com');
    expect(curated).toContain('rls-curated@example.com');
    expect(curated).not.toContain('rls-open@example.com');
  });

  test('search, favourites and idempotent writes work under row-level security', async () => {
    const id = await s.draftWithPhoto(s.open, s.seller, s.complete(s.open));
    expect((await s.publish(s.open, s.seller, id)).statusCode).toBe(200);
    const found = await s.h.request({ method: 'GET', url: '/v1/listings?q=armchair', key: s.open.publishable });
    expect(found.json().items.map((l: { id: string }) => l.id)).toContain(id);
    const save = () => s.h.request({ method: 'PUT', url: `/v1/me/favorites/${id}`, key: s.open.secret, session: s.other, headers: { 'idempotency-key': '00000000-0000-4000-8000-00000000f00d' } });
    expect((await save()).statusCode).toBe(204);
    expect((await save()).headers['idempotent-replayed']).toBe('true');
    const listing = await s.h.request({ method: 'GET', url: `/v1/listings/${id}`, key: s.open.publishable });
    expect(listing.json().favorite_count).toBe(1);
  });
});
