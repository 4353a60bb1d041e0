import { Migration } from '@mikro-orm/migrations';

/**
 * Job priorities. graphile-worker takes due jobs in priority order (lower first), then by due time,
 * so a burst of bulk work — a seller dropping 30 photos, the demo shop's 120 listings on a first
 * `npm start` — no longer queues ahead of a sign-in link, a payment confirmation or a timer.
 * `hm_add_job` gains a `priority` argument (null = graphile-worker's default, 0); the tenant check
 * is unchanged.
 */
export class Migration20261125190000_job_priority extends Migration {
  override name = 'Migration20261125190000_job_priority';

  up(): void {
    this.addSql(`drop function hm_add_job(text, json, text, timestamptz, int)`);
    this.addSql(`create function hm_add_job(identifier text, payload json, job_key text default null, run_at timestamptz default null, max_attempts int default null, priority int default null)
      returns void language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
      declare m uuid := public.hm_marketplace();
      begin
        if m is not null and ($2 ->> 'marketplace_id') is distinct from m::text then
          raise exception 'a job added for marketplace % must carry it as payload.marketplace_id', m using errcode = '42501';
        end if;
        perform graphile_worker.add_job($1, $2, job_key => $3, run_at => $4, max_attempts => $5, priority => $6);
      end $$`);
    this.addSql(`revoke all on function hm_add_job(text, json, text, timestamptz, int, int) from public`);
    this.addSql(`grant execute on function hm_add_job(text, json, text, timestamptz, int, int) to hm_app`);
  }
}
