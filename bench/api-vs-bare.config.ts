/** api-vs-bare's settings (environment variables: BENCH_CONNECTIONS, BENCH_WARMUP_S, … see api-vs-bare.ts). */

const num = (name: string, fallback: number) => {
  const v = process.env[name];
  const n = v === undefined || v === '' ? fallback : Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number`);
  return n;
};
export const CONFIG = {
  connections: num('BENCH_CONNECTIONS', 10),
  /** unmeasured load on each target before the first measured slice */
  warmupSeconds: num('BENCH_WARMUP_S', 5),
  /** unmeasured load right before every measured slice (re-opens pools idle since the last slice) */
  settleSeconds: num('BENCH_SETTLE_S', 1),
  /** measured seconds per slice; each target gets `rounds` slices */
  sliceSeconds: num('BENCH_SLICE_S', 2.5),
  rounds: num('BENCH_ROUNDS', 4),
  /** listings on sale in the bench marketplace (the search's first page is 24 of them) */
  listings: num('BENCH_LISTINGS', 1000),
  pipelining: 1,
  /** the whole run is killed past this, whatever happens (12 targets × 2 sides and the conditional part take ~12 min with the defaults) */
  hardLimitSeconds: num("BENCH_HARD_LIMIT_S", 1500),
};
