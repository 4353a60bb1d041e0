import { ZReferenceRates, type RateSource } from '../../core/ports/rate-source.js';

/** Reads reference rates from a URL answering `ZReferenceRates` JSON (`RATES_URL`). */
export function httpRateSource(url: string, fetchImpl: typeof fetch = fetch): RateSource {
  return {
    name: url,
    async latest() {
      const res = await fetchImpl(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(30_000) });
      if (!res.ok) throw new Error(`reference rates: ${url} answered ${res.status}`);
      return ZReferenceRates.parse(await res.json());
    },
  };
}
