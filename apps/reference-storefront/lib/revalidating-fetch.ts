/**
 * The shop's own API calls (no user) kept across requests and revalidated: each GET answer with an
 * `ETag` is remembered per URL, and the next call for that URL sends `If-None-Match`; a `304` is
 * answered from the remembered body (the API then skipped sending it, and for a version it knows —
 * the marketplace — skipped the procedure too). Nothing is served without asking: every call still
 * reaches the API, so no answer is ever older than the API's own. Only for calls without a user
 * session: a user's answers are theirs (`private, no-store`) and never kept here.
 */
export interface RevalidatingFetchOptions {
  /** URLs remembered at most (the oldest forgotten first) */
  maxEntries?: number;
  /** answers larger than this (characters) are not kept */
  maxBodyLength?: number;
}

interface Kept {
  etag: string;
  body: string;
  contentType: string | null;
}

export function revalidatingFetch(base: typeof fetch = fetch, opts: RevalidatingFetchOptions = {}): typeof fetch & { size(): number } {
  const maxEntries = opts.maxEntries ?? 300;
  const maxBodyLength = opts.maxBodyLength ?? 128 * 1024; // characters: at most ~80 MB held in all (UTF-16)
  const kept = new Map<string, Kept>();

  const call = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (method !== 'GET') return base(input, init);
    const hit = kept.get(url);
    const headers = new Headers(init?.headers);
    if (hit) headers.set('if-none-match', hit.etag);
    const res = await base(input, { ...init, headers });
    if (res.status === 304 && hit) {
      // most recently used last
      kept.delete(url);
      kept.set(url, hit);
      return new Response(hit.body, { status: 200, headers: hit.contentType ? { 'content-type': hit.contentType, etag: hit.etag } : { etag: hit.etag } });
    }
    const etag = res.headers.get('etag');
    if (res.status !== 200 || !etag) {
      kept.delete(url);
      return res;
    }
    const body = await res.text();
    kept.delete(url);
    if (body.length <= maxBodyLength) {
      kept.set(url, { etag, body, contentType: res.headers.get('content-type') });
      while (kept.size > maxEntries) kept.delete(kept.keys().next().value!);
    }
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return Object.assign(call as typeof fetch, { size: () => kept.size });
}
