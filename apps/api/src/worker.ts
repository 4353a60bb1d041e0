import { connect, createPorts, exitOnStartupError, loadConfig, startConfiguredWorker } from './runtime.js';

/**
 * `npm run worker`: the job runner alone (for more job throughput beside API processes). It keeps the
 * embedded database up like `npm start` does, survives the database restarting, and on SIGINT/SIGTERM
 * lets running jobs finish (10 s at most) and releases the rest for another worker.
 */
const config = loadConfig();
const say = (message: string) => process.stderr.write(`${message}\n`);
const db = await connect(config, { supervise: true, notice: say }).catch(exitOnStartupError);
const runner = await startConfiguredWorker(config, db, createPorts(config), (level, message) => {
  if (level !== 'debug') say(`[worker ${level}] ${message}`);
});
say(`worker running (${runner.poolId}); Ctrl-C to stop`);
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  say(`${signal}: finishing running jobs…`);
  setInterval(() => {}, 60_000); // a ref'd handle: Node must not exit on its own before the database is stopped
  await runner.stop();
  await db.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
