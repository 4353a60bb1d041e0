/** A kept GET answer: its body and strong tag. */
export interface Answer {
  body: string;
  tag: string;
}

/** Bodies kept per owner (characters): a marketplace's public answers in one process stay within ~16 MB. */
export const KEPT_BYTES_PER_OWNER = 8_000_000;

/**
 * The dispatcher's kept answers (dispatch.ts `keepAnswerFor`): per owner object, by canonical URL,
 * at most KEPT_BYTES_PER_OWNER of bodies, the oldest dropped first; they go when the owner goes.
 * An answer may be kept under keys (what it shows, e.g. a listing's id): `forget(owner, key)` drops
 * only the answers kept under that key, the owner's others stay.
 */
export function keptAnswers() {
  interface Kept {
    answer: Answer;
    keys: readonly string[];
  }
  interface Owned {
    byUrl: Map<string, Kept>;
    bytes: number;
    /** key → the URLs of the answers kept under it */
    byKey: Map<string, Set<string>>;
  }
  const owners = new WeakMap<object, Owned>();

  const drop = (o: Owned, url: string, kept: Kept) => {
    o.byUrl.delete(url);
    o.bytes -= kept.answer.body.length + url.length;
    for (const key of kept.keys) {
      const urls = o.byKey.get(key);
      urls?.delete(url);
      if (urls?.size === 0) o.byKey.delete(key);
    }
  };

  return {
    get: (owner: object, url: string): Answer | undefined => owners.get(owner)?.byUrl.get(url)?.answer,

    keep(owner: object, url: string, answer: Answer, keys: readonly string[] = []) {
      let o = owners.get(owner);
      if (!o) owners.set(owner, (o = { byUrl: new Map(), bytes: 0, byKey: new Map() }));
      const size = answer.body.length + url.length;
      if (size > KEPT_BYTES_PER_OWNER / 4) return;
      const was = o.byUrl.get(url);
      if (was) drop(o, url, was);
      // the oldest go first (Map order is insertion order)
      for (const [oldUrl, old] of o.byUrl) {
        if (o.bytes + size <= KEPT_BYTES_PER_OWNER) break;
        drop(o, oldUrl, old);
      }
      o.byUrl.set(url, { answer, keys });
      o.bytes += size;
      for (const key of keys) {
        let urls = o.byKey.get(key);
        if (!urls) o.byKey.set(key, (urls = new Set()));
        urls.add(url);
      }
    },

    /** Drops the answers kept with `owner` under `key`. */
    forget(owner: object, key: string) {
      const o = owners.get(owner);
      const urls = o?.byKey.get(key);
      if (!o || !urls) return;
      for (const url of [...urls]) drop(o, url, o.byUrl.get(url)!);
    },

    /** Answers kept with `owner` (tests). */
    size: (owner: object) => owners.get(owner)?.byUrl.size ?? 0,
  };
}

export type KeptAnswers = ReturnType<typeof keptAnswers>;
