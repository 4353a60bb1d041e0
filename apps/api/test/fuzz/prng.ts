/**
 * A small seeded generator (sfc32) so a fuzz run is reproducible from its seed alone: the same seed
 * and count produce the same requests in the same order.
 */
export interface Rng {
  readonly seed: number;
  /** uniform in [0, 1) */
  next(): number;
  /** integer in [min, max] */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** a random version-7-shaped UUID (valid syntax, never a real row) */
  uuid(): string;
}

export function rng(seed: number): Rng {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next(); // mix the seed in
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const hex = (n: number) => Array.from({ length: n }, () => int(0, 15).toString(16)).join('');
  return {
    seed,
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(0, items.length - 1)]!;
    },
    uuid: () => `${hex(8)}-${hex(4)}-7${hex(3)}-${['8', '9', 'a', 'b'][int(0, 3)]}${hex(3)}-${hex(12)}`,
  };
}

/** The suite's run is the same every time; FUZZ_SEED explores (or reproduces) another one. */
export const DEFAULT_SEED = 20_261_122;

export function seedFromEnv(): number {
  const fromEnv = process.env.FUZZ_SEED;
  if (fromEnv !== undefined && fromEnv !== '') {
    const n = Number(fromEnv);
    if (!Number.isInteger(n)) throw new Error(`FUZZ_SEED must be an integer, got ${fromEnv}`);
    return n >>> 0;
  }
  return DEFAULT_SEED;
}
