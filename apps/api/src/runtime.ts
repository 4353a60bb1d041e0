import { existsSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, type OpenDatabase } from '@hm/db/database';
import { readConfig, type Config } from './config.js';
import { REPO_ROOT } from './paths.js';

/** Composition root shared by `npm start`, `npm run worker` and the console: config, then the database. */
export function loadConfig(): Config {
  const envFile = path.join(REPO_ROOT, '.env');
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  return readConfig();
}

export function connect(config: Config, log?: (line: string) => void): Promise<OpenDatabase> {
  return openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    embeddedPort: config.EMBEDDED_PG_PORT,
    mode: config.API_MODE,
    orm: { poolMax: config.DATABASE_POOL_MAX },
    onLog: log,
  });
}
