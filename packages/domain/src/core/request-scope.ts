import { AsyncLocalStorage } from 'node:async_hooks';
import type { Marketplace } from '@hm/db/entities';

/**
 * The marketplace of the request being handled, visible to input schemas. The auth middleware runs
 * before input parsing, so field rules that depend on the marketplace (its term kinds, currencies,
 * languages) are checked by zod together with every other field: all problems are listed at once.
 */
const scope = new AsyncLocalStorage<Marketplace>();

export function withMarketplace<T>(m: Marketplace, fn: () => T): T {
  return scope.run(m, fn);
}

export function currentMarketplace(): Marketplace | undefined {
  return scope.getStore();
}
