import pg from 'pg';

/**
 * What the caches hear: a marketplace whose keys or settings changed (`key`: `hm_key_changed`), or
 * whose public data changed (`reads`: `hm_reads_changed`, sent by the …_read_cache_notify triggers;
 * with `listingId` when only that listing's favourite count changed: the …_listing_reads_notify
 * trigger's payload `<marketplace id> <listing id>`), or `undefined`: anything may have (the
 * listening connection was lost, or has just been made).
 */
export type KeyChange = (marketplaceId: string | undefined, what?: 'key' | 'reads', listingId?: string) => void;

export interface KeyChangeListener {
  /** resolves once LISTEN is in place (or the first attempt failed: the cache then keeps its time limit alone) */
  ready: Promise<void>;
  /** whether LISTEN is in place now: while it is not, a change may go unheard (the read cache then keeps nothing) */
  listening(): boolean;
  close(): Promise<void>;
}

const CHANNELS = { hm_key_changed: 'key', hm_reads_changed: 'reads' } as const;
const RECONNECT_MS = 1000;

/**
 * One connection of its own per API process LISTENing on `hm_key_changed` (sent by the
 * `…_key_cache_notify` triggers when a change to a marketplace or an API key commits), so the
 * process forgets that marketplace's cached keys at once rather than after API_KEY_CACHE_MS, and on
 * `hm_reads_changed` (…_read_cache_notify: a change to a marketplace's public data), so it forgets
 * the public answers it keeps for that marketplace (read-cache.ts). A lost
 * connection may have missed notifications: everything is forgotten, then it connects again.
 * Needs a session of its own (LISTEN): connect it to Postgres directly, not through a transaction pooler.
 */
export function listenForKeyChanges(databaseUrl: string, onChange: KeyChange, log: (msg: string, err?: unknown) => void = () => {}): KeyChangeListener {
  let client: pg.Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let warned = false; // one line per outage, not one per attempt

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: databaseUrl, application_name: 'hm-key-cache' });
    let lost = false;
    const onLost = (err?: unknown) => {
      if (lost) return;
      lost = true;
      onChange(undefined);
      c.removeAllListeners('notification');
      void c.end().catch(() => {});
      if (client === c) client = undefined;
      if (!closed) {
        if (!warned) log('key cache: the connection listening for key changes was lost; reconnecting every second (meanwhile cached keys last API_KEY_CACHE_MS)', err);
        warned = true;
        timer = setTimeout(() => void connect(), RECONNECT_MS);
      }
    };
    c.on('error', onLost);
    c.on('end', () => onLost());
    c.on('notification', (n) => {
      const what = CHANNELS[n.channel as keyof typeof CHANNELS];
      if (!what) return;
      const [marketplaceId, listingId] = (n.payload ?? '').split(' ');
      if (listingId) onChange(marketplaceId, what, listingId);
      else onChange(marketplaceId || undefined, what);
    });
    try {
      await c.connect();
      await c.query(Object.keys(CHANNELS).map((channel) => `listen ${channel}`).join('; '));
      if (closed) return void (await c.end().catch(() => {}));
      client = c;
      warned = false;
      // whatever changed while no one listened
      onChange(undefined);
    } catch (err) {
      onLost(err);
    }
  };

  const ready = connect();
  return {
    ready,
    listening: () => client !== undefined,
    async close() {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => {});
    },
  };
}
