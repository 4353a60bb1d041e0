/**
 * The storefront-like request mix, one definition for the benchmarks that load the API the way a
 * storefront does (bench:load's knee, bench:events' p95 with and without webhook deliveries):
 *
 *   70 % listing search (`GET /v1/listings` with varied words, prefixes, categories, terms, price
 *   ranges and sorts), 20 % listing pages (`GET /v1/listings/{id}`), 10 % favourites and sign-ins
 *   (save / forget a listing, the saved list, `POST /v1/sessions` with a password); reads with the
 *   publishable key, the rest with the secret key and a user's session, as a storefront's server
 *   sends them. Every request is picked at random from the mix as it is sent (seeded, so runs send
 *   the same sequence).
 */
import autocannon from 'autocannon';
import { RARE_WORD, VOCABULARY, type SeedResult } from './seed.js';

export const MIX = { search: 0.7, listingPage: 0.2, favourites: 0.08, signIns: 0.02 };
export const MIX_USERS = 20;
const PASSWORD = 'bench-load-password';

export type Kind = 'search' | 'listing' | 'favorite' | 'sign-in';
export interface Spec {
  kind: Kind;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
export interface MixUser {
  email: string;
  session: string;
}

/** A small seeded generator (mulberry32), so every run sends the same sequence of requests. */
export function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The mix's shoppers: users with passwords, signed up over HTTP (each one a `user.created` event). */
export async function mixUsers(apiUrl: string, secretKey: string, count = MIX_USERS): Promise<MixUser[]> {
  const users: MixUser[] = [];
  for (let i = 0; i < count; i++) {
    const email = `shopper${i}@example.com`;
    const res = await fetch(`${apiUrl}/v1/users`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
    if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
    users.push({ email, session: ((await res.json()) as { session: { token: string } }).session.token });
  }
  return users;
}

/** The next request of the mix, each call a new one (seeded). `ids`: listings on sale to open and save. */
export function storefrontMix(o: { keys: { secret: string; publishable: string }; seed: Pick<SeedResult, 'categories' | 'brands'>; ids: string[]; users: MixUser[]; rngSeed?: number }): () => Spec {
  const rnd = random(o.rngSeed ?? 16);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const publishable = { authorization: `Bearer ${o.keys.publishable}` };
  const secret = { authorization: `Bearer ${o.keys.secret}`, 'content-type': 'application/json' };
  const words = [...VOCABULARY, RARE_WORD];
  const sorts = ['newest', 'price_asc', 'price_desc', 'popular'];
  const search = (): Spec => {
    const q = new URLSearchParams({ limit: '24' });
    const shape = rnd();
    if (shape < 0.35) q.set('q', pick(words));
    else if (shape < 0.45) q.set('q', `${pick(words)} ${pick(words)}`);
    else if (shape < 0.55) q.set('q', pick(words).slice(0, 2));
    else if (shape < 0.8) q.set('category', pick(o.seed.categories).id);
    if (rnd() < 0.2) q.append('term', pick(o.seed.brands));
    if (rnd() < 0.15) {
      q.set('min_price', String(1000 * Math.floor(rnd() * 100)));
      q.set('max_price', String(100_000 + 10_000 * Math.floor(rnd() * 100)));
    }
    if (!q.has('q') || rnd() < 0.3) q.set('sort', pick(sorts));
    return { kind: 'search', method: 'GET', path: `/v1/listings?${q}`, headers: publishable };
  };
  return (): Spec => {
    const r = rnd();
    if (r < 0.7) return search();
    if (r < 0.9) return { kind: 'listing', method: 'GET', path: `/v1/listings/${pick(o.ids)}`, headers: publishable };
    const user = pick(o.users);
    const session = { authorization: `Bearer ${o.keys.secret}`, 'x-user-session': user.session };
    if (r < 0.94) return { kind: 'favorite', method: 'PUT', path: `/v1/me/favorites/${pick(o.ids)}`, headers: session };
    if (r < 0.96) return { kind: 'favorite', method: 'DELETE', path: `/v1/me/favorites/${pick(o.ids)}`, headers: session };
    if (r < 0.98) return { kind: 'favorite', method: 'GET', path: '/v1/me/favorites?limit=24', headers: session };
    return { kind: 'sign-in', method: 'POST', path: '/v1/sessions', headers: secret, body: JSON.stringify({ email: user.email, password: PASSWORD }) };
  };
}

/** Every shape answers 2xx before any load (a mix that fails requests would measure errors). */
export async function checkMix(apiUrl: string, next: () => Spec, requests = 200, label = 'mix'): Promise<void> {
  for (let i = 0; i < requests; i++) {
    const s = next();
    const res = await fetch(`${apiUrl}${s.path}`, { method: s.method, headers: s.headers, ...(s.body ? { body: s.body } : {}), signal: AbortSignal.timeout(10_000) }).catch((e: Error) => {
      throw new Error(`${label}: ${s.method} ${s.path} failed: ${e.message}`, { cause: e });
    });
    if (res.status >= 300) throw new Error(`${s.method} ${s.path} answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  }
}

/**
 * autocannon over the mix; `onSent` sees each request's kind, `onResponse` each response time (ms, exact);
 * `overallRate`: at most this many requests per second in all (a steady load below the knee), else as fast as answered.
 */
export function runMix(apiUrl: string, next: () => Spec, connections: number, seconds: number, onSent?: (kind: Kind) => void, onResponse?: (ms: number) => void, overallRate?: number) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: apiUrl,
        connections,
        duration: seconds,
        timeout: 10,
        ...(overallRate ? { overallRate } : {}),
        requests: [
          {
            setupRequest: (req) => {
              const s = next();
              onSent?.(s.kind);
              // keep autocannon's defaults (host, port); replace what the mix decides
              // (a copy: autocannon writes content-length into the headers it is given, and these objects are shared)
              return { ...req, method: s.method, path: s.path, headers: { ...s.headers }, body: s.body ?? '' };
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    if (onResponse) instance.on('response', (_client, _status, _bytes, ms) => onResponse(ms));
  });
}
