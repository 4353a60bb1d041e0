/**
 * Search estimates kept for a short while (issue 28). Past 10 000 matches `total` and the facet
 * counts are estimated from a sample of the listings on sale (±5 %); the sample, not the page, is then
 * what a search costs at a million listings. The same estimate — same marketplace, same statement and
 * parameters, same number of listings on sale — is answered from memory for ESTIMATE_KEPT_MS: a
 * shopper paging through a query, or many asking for the same popular word, pays for it once.
 *
 * Only estimates are kept: an answer that is exact (≤ 10 000 matches) is always counted again. The key
 * holds the marketplace's on-sale count (kept by a trigger, read by the search anyway), so a listing
 * going on or off sale starts a new estimate; an edit that changes which listings match (a title) is
 * seen within ESTIMATE_KEPT_MS — far less than 5 % of more than 10 000 matches changes in that time.
 * Per process, at most MAX_KEPT estimates, the oldest dropped first.
 */
export const ESTIMATE_KEPT_MS = 30_000;
const MAX_KEPT = 1_000;

const kept = new Map<string, { until: number; value: unknown }>();

/** `compute()`'s answer, or the one kept under `key` while it lasts; kept only when `isEstimate` says it is one. */
export async function keptEstimate<T>(key: readonly unknown[], isEstimate: (value: T) => boolean, compute: () => Promise<T>, now = Date.now): Promise<T> {
  const k = JSON.stringify(key, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
  const hit = kept.get(k);
  if (hit && hit.until > now()) return structuredClone(hit.value) as T;
  if (hit) kept.delete(k);
  const value = await compute();
  if (isEstimate(value)) {
    if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(k, { until: now() + ESTIMATE_KEPT_MS, value: structuredClone(value) });
  }
  return value;
}
