import { connect, createPorts, loadConfig, startConfiguredWorker } from './runtime.js';

/** `npm run worker`: the job runner alone (for more job throughput beside API processes). */
const config = loadConfig();
const db = await connect(config);
const runner = await startConfiguredWorker(config, db, createPorts(config), (level, message) => {
  process.stderr.write(`[worker ${level}] ${message}\n`);
});
process.stderr.write('worker running; Ctrl-C to stop\n');
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await runner.stop();
  await db.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
