/**
 * Deterministic randomness for the demo shop: every choice (price, photo colours, which listings
 * drop in price) comes from a generator seeded by a name, so the shop looks the same on every
 * machine and every start, and a listing's photos can be made again after an interrupted seed.
 */
export interface DemoRandom {
  /** uniform in [0, 1) */
  next(): number;
  /** integer in [min, max] */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** `count` different items, in the order drawn */
  sample<T>(items: readonly T[], count: number): T[];
}

/** FNV-1a: a 32-bit seed from a name. */
function hash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32 over the name's hash: small, fast and good enough for pictures and prices. */
export function demoRandom(name: string): DemoRandom {
  let state = hash(name);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => items[int(0, items.length - 1)]!,
    sample(items, count) {
      const pool = [...items];
      const out = [];
      while (out.length < count && pool.length) out.push(pool.splice(int(0, pool.length - 1), 1)[0]!);
      return out;
    },
  };
}
