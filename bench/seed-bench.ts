/**
 * `npm run seed:bench -- --listings 1000000 [--marketplace bench]`: bench data into the configured
 * database (embedded under DATA_DIR, or DATABASE_URL), migrated first. See bench/seed.ts.
 */
import { parseArgs } from 'node:util';
import { connect, loadConfig } from '../apps/api/src/runtime.js';
import { seedBench } from './seed.js';

const { values } = parseArgs({ options: { listings: { type: 'string', default: '100000' }, marketplace: { type: 'string', default: 'bench' } }, strict: true });
const listings = Number(values.listings);
if (!Number.isInteger(listings) || listings < 1 || listings > 20_000_000) {
  process.stderr.write('--listings must be a whole number from 1 to 20000000\n');
  process.exit(2);
}
const config = loadConfig();
const db = await connect(config);
try {
  process.stderr.write(`seed:bench: ${listings.toLocaleString('en-US')} listings into marketplace "${values.marketplace}"…\n`);
  const r = await seedBench(db.url, { listings, marketplace: values.marketplace! });
  process.stdout.write(`${JSON.stringify({ marketplace: values.marketplace, marketplace_id: r.marketplaceId, listings: r.listings, seconds: Number(r.seconds.toFixed(1)) })}\n`);
} finally {
  await db.close();
}
