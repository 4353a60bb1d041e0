import type { EntityManager } from '@hm/db/orm';
import { crossTenantSql } from '@hm/db/sql';

/** The role the app connects as, and whether row-level security could be skipped by it (superuser or BYPASSRLS). */
export async function connectingRole(em: EntityManager): Promise<{ name: string; superuser: boolean; bypassRls: boolean }> {
  const [row] = await crossTenantSql(em)<{ name: string; superuser: boolean; bypass_rls: boolean }>`select rolname as name, rolsuper as superuser, rolbypassrls as bypass_rls from pg_roles where rolname = session_user`;
  return { name: row!.name, superuser: row!.superuser, bypassRls: row!.bypass_rls };
}

/** The latest heartbeat of any job runner (`worker_heartbeats`) and how many beat within `withinSeconds`. */
export async function workerHeartbeats(em: EntityManager, withinSeconds: number): Promise<{ alive: number; lastBeat: Date | null }> {
  const [row] = await crossTenantSql(em)<{ alive: number; last_beat: Date | string | null }>`
    select count(*) filter (where beat_at > now() - make_interval(secs => ${withinSeconds}))::int as alive, max(beat_at) as last_beat from worker_heartbeats`;
  return { alive: row!.alive, lastBeat: row!.last_beat === null ? null : new Date(row!.last_beat) };
}
