import type { MikroORM } from '@mikro-orm/postgresql';

/** Applies pending migrations; returns the names applied. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}
