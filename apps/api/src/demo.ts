import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OpenDatabase } from '@hm/db/database';
import { seedDemo } from '@hm/domain/demo';
import { demoLogins, seedDemoShop, type DemoLogins } from '@hm/domain/demo-shop';
import { ensureDemoPages } from '@hm/domain/demo-pages';
import { demoOperators, ensureDemoOperators, type DemoOperators } from '@hm/domain/demo-operators';
import type { Ports } from '@hm/domain/ports';
import type { Config } from './config.js';

/**
 * `DATA_DIR/demo-keys.<mode>.json` (mode 600): the only plain copy of the demo's keys and of the
 * demo accounts' passwords (both are stored hashed), so `npm start` can print them on every start;
 * `shop` records that the demo shop was seeded in full (how many listings), so later starts skip it.
 */
export interface DemoFile {
  secret: string;
  publishable: string;
  logins?: DemoLogins;
  /** the back office's demo admin and viewer */
  operators?: DemoOperators;
  shop?: { listings: number; seeded_at: string };
}

const fileOf = (config: Config) => path.join(config.dataDir, `demo-keys.${config.API_MODE}.json`);

function write(config: Config, demo: DemoFile): DemoFile {
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(fileOf(config), JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}

const password = () => randomBytes(9).toString('base64url');

/** The demo marketplace and its keys, made on an empty test database; the accounts' passwords chosen now. */
export async function createDemo(config: Config, db: OpenDatabase): Promise<DemoFile> {
  const today = new Date().toISOString().slice(0, 10);
  const { keys } = await seedDemo(db.orm, { mode: config.API_MODE, storefrontUrl: config.storefrontUrl, today });
  return write(config, { ...keys, logins: demoLogins({ buyer: password(), seller: password() }), operators: demoOperators({ admin: password(), viewer: password() }) });
}

/** The demo admin and viewer exist with the passwords on file (a demo from before the back office gets them now). */
export async function ensureDemoTeam(config: Config, db: OpenDatabase, demo: DemoFile): Promise<DemoFile> {
  const withOps = demo.operators ? demo : write(config, { ...demo, operators: demoOperators({ admin: password(), viewer: password() }) });
  await ensureDemoOperators(db.orm, withOps.operators!);
  return withOps;
}

/** The demo file, if this data directory has one; one from before the demo accounts gets their passwords. */
export function readDemo(config: Config): DemoFile | undefined {
  if (!existsSync(fileOf(config))) return undefined;
  const demo = JSON.parse(readFileSync(fileOf(config), 'utf8')) as DemoFile;
  return demo.logins ? demo : write(config, { ...demo, logins: demoLogins({ buyer: password(), seller: password() }) });
}

/**
 * Seeds the demo shop in the background (progress through `log`); the API is already answering.
 * Marked done in the demo file only when complete: a start that is stopped midway (Ctrl-C or kill -9)
 * leaves it unmarked, and the next start carries on where it was. `stop` waits for the current step.
 */
export function seedShopInBackground(opts: { config: Config; db: OpenDatabase; ports: Ports; demo: DemoFile; log: (line: string) => void }): { stop(): Promise<void> } {
  const { config, demo, log } = opts;
  if (!demo.logins || (demo.shop && demo.shop.listings >= config.DEMO_LISTINGS)) {
    // a demo seeded before content pages existed gets them (once: a home page in any state is left alone)
    void ensureDemoPages({ orm: opts.db.orm, ports: opts.ports }).then(
      (made) => made && log('Demo shop: home and about pages published.'),
      (e: Error) => log(`Demo pages: not made (${e.message.split('\n')[0]}).`),
    );
    return { stop: async () => {} };
  }
  const controller = new AbortController();
  const done = seedDemoShop({ orm: opts.db.orm, ports: opts.ports }, { logins: demo.logins, listings: config.DEMO_LISTINGS, log, signal: controller.signal }).then(
    (r) => {
      if (r.complete) write(config, { ...demo, shop: { listings: r.listings, seeded_at: new Date().toISOString() } });
    },
    (e: Error) => {
      if (!controller.signal.aborted) log(`Demo shop: seeding stopped (${e.message.split('\n')[0]}); the next start carries on from there.`);
    },
  );
  return {
    async stop() {
      controller.abort();
      await Promise.race([done, new Promise((r) => setTimeout(r, 5000))]);
    },
  };
}
