import { Migration } from '@mikro-orm/migrations';

/**
 * `worker_heartbeats`: one row per running job runner (API process or `npm run worker`), beaten
 * every few seconds and removed when it stops, so that the go-live check (`console doctor`) can tell
 * whether any worker is alive: without one, no email is sent and no order timer runs. Not tenant
 * data (no marketplace_id); rows of runners that died are simply old.
 */
export class Migration20261128040000_worker_heartbeats extends Migration {
  override name = 'Migration20261128040000_worker_heartbeats';

  up(): void {
    this.addSql(`create table worker_heartbeats (
      id uuid primary key,
      host text not null,
      pid integer not null,
      started_at timestamptz not null,
      beat_at timestamptz not null
    )`);
    this.addSql(`create index worker_heartbeats_beat_at on worker_heartbeats (beat_at)`);
  }

  override down(): void {
    this.addSql(`drop table worker_heartbeats`);
  }
}
