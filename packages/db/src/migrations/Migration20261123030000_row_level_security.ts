import { Migration } from '@mikro-orm/migrations';

/**
 * Row-level security on every tenant table, a second net under the ORM's `tenant` filter and the
 * tenant SQL helper (see tenancy.ts and sql.ts):
 *
 * - `hm_app` (NOLOGIN, no BYPASSRLS): tenant work switches to it per transaction and sees only the
 *   rows of `hm.marketplace_id` (policy `tenant_isolation`). Superusers and BYPASSRLS roles skip
 *   row-level security altogether, so without this role the net would not exist on the embedded
 *   server, where we connect as the superuser `postgres`.
 * - the role running this migration (the tables' owner) is subject to row-level security too
 *   (FORCE, for when it is not a superuser) and sees every tenant only in a transaction that sets
 *   `hm.cross_tenant = on` (policy `cross_tenant`): migrations, console, purges, fan-outs.
 *
 * Creating `hm_app` needs CREATEROLE (or a superuser); without it the DBA creates it beforehand
 * (README: "Row-level security"). Later tables call `select hm_enable_tenant_rls('<table>')`.
 */
export class Migration20261123030000_row_level_security extends Migration {
  override name = 'Migration20261123030000_row_level_security';

  up(): void {
    this.addSql(`do $$
      declare me name := current_user;
      begin
        if not exists (select from pg_roles where rolname = 'hm_app') then
          if not (select rolsuper or rolcreaterole from pg_roles where rolname = me) then
            raise exception '%', format('Row-level security needs the role hm_app, which %I may not create. As a superuser run: CREATE ROLE hm_app NOLOGIN; GRANT hm_app TO %I;', me, me);
          end if;
          begin
            create role hm_app nologin noinherit nobypassrls;
          exception when duplicate_object then null; -- made meanwhile by a migration of another database
          end;
        end if;
        if (select rolsuper or rolbypassrls from pg_roles where rolname = 'hm_app') then
          raise exception 'hm_app must not be a superuser or have BYPASSRLS: row-level security would not apply to it';
        end if;
        -- switching to it needs membership with SET (PostgreSQL 16+; a role's creator gets ADMIN only)
        if not pg_has_role(me, 'hm_app', case when current_setting('server_version_num')::int >= 160000 then 'SET' else 'MEMBER' end) then
          begin
            execute format('grant hm_app to %I', me);
          exception when insufficient_privilege then
            raise exception '%', format('%I must be able to switch to the role hm_app. As a superuser run: GRANT hm_app TO %I;', me, me);
          end;
        end if;
      end $$`);

    // The policies call these as `(select …)`: an InitPlan, evaluated once per statement rather than per row.
    this.addSql(`create or replace function hm_marketplace() returns uuid language sql stable parallel safe
      as $$ select nullif(current_setting('hm.marketplace_id', true), '')::uuid $$`);
    this.addSql(`create or replace function hm_cross_tenant() returns boolean language sql stable parallel safe
      as $$ select coalesce(current_setting('hm.cross_tenant', true), '') = 'on' $$`);

    this.addSql(`create or replace function hm_enable_tenant_rls(t regclass, tenant_column name default 'marketplace_id', privileges text default 'select, insert, update, delete')
      returns void language plpgsql as $$
      declare seq regclass;
      begin
        execute format('alter table %s enable row level security', t);
        execute format('alter table %s force row level security', t);
        execute format('drop policy if exists tenant_isolation on %s', t);
        execute format('create policy tenant_isolation on %s to hm_app using (%I = (select hm_marketplace())) with check (%I = (select hm_marketplace()))', t, tenant_column, tenant_column);
        execute format('drop policy if exists cross_tenant on %s', t);
        execute format('create policy cross_tenant on %s to %I using ((select hm_cross_tenant())) with check ((select hm_cross_tenant()))', t, current_user);
        execute format('grant %s on %s to hm_app', privileges, t);
        for seq in select d.objid::regclass from pg_depend d join pg_class c on c.oid = d.objid
                    where d.refobjid = t and d.classid = 'pg_class'::regclass and c.relkind = 'S' loop
          execute format('grant usage on sequence %s to hm_app', seq);
        end loop;
      end $$`);

    this.addSql(`do $$
      declare t regclass;
      begin
        for t in select format('%I.%I', c.table_schema, c.table_name)::regclass from information_schema.columns c
                   join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name
                  where c.table_schema = 'public' and c.column_name = 'marketplace_id' and tb.table_type = 'BASE TABLE' loop
          perform hm_enable_tenant_rls(t);
        end loop;
      end $$`);
    // The tenant itself: a marketplace sees and edits only its own row (created by the console).
    this.addSql(`select hm_enable_tenant_rls('marketplaces', 'id', 'select, update')`);

    // graphile-worker's queue is shared by every tenant and hm_app has no rights on it: tenant work
    // adds and removes jobs through these, which keep a tenant to jobs that carry its marketplace.
    this.addSql(`create or replace function hm_add_job(identifier text, payload json, job_key text default null, run_at timestamptz default null, max_attempts int default null)
      returns void language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
      declare m uuid := public.hm_marketplace();
      begin
        if m is not null and ($2 ->> 'marketplace_id') is distinct from m::text then
          raise exception 'a job added for marketplace % must carry it as payload.marketplace_id', m using errcode = '42501';
        end if;
        perform graphile_worker.add_job($1, $2, job_key => $3, run_at => $4, max_attempts => $5);
      end $$`);
    this.addSql(`create or replace function hm_remove_job(job_key text) returns void
      language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
      declare m uuid := public.hm_marketplace();
      begin
        if m is not null and exists (select from graphile_worker._private_jobs j where j.key = $1 and (j.payload ->> 'marketplace_id') is distinct from m::text) then
          raise exception 'job % belongs to another marketplace', $1 using errcode = '42501';
        end if;
        perform graphile_worker.remove_job($1);
      end $$`);
    this.addSql(`revoke all on function hm_add_job(text, json, text, timestamptz, int), hm_remove_job(text) from public`);
    this.addSql(`grant execute on function hm_add_job(text, json, text, timestamptz, int), hm_remove_job(text) to hm_app`);

    // Under row-level security the planner uses an index for a query's own condition only when its
    // operator is LEAKPROOF; full-text match and array overlap are not marked so, and search would
    // lose its GIN indexes. Only a superuser may mark them (README: "Row-level security").
    this.addSql(`do $$
      begin
        if (select rolsuper from pg_roles where rolname = current_user) then
          alter function pg_catalog.ts_match_vq(tsvector, tsquery) leakproof;
          alter function pg_catalog.arrayoverlap(anyarray, anyarray) leakproof;
        else
          raise notice 'not a superuser: search filters on words and terms cannot use their GIN indexes under row-level security until a superuser marks ts_match_vq and arrayoverlap LEAKPROOF';
        end if;
      end $$`);
  }
}
