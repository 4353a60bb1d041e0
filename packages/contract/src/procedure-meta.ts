import type { OpenApiMeta } from 'trpc-to-openapi';

/**
 * Who may call a procedure:
 * - `key`: any API key of the deployment's mode (public data: publishable keys allowed)
 * - `secret`: a secret key only
 * - `session`: a secret key and a signed-in user's `X-User-Session` (the `/v1/me…` endpoints)
 * - `none`: no key (image downloads and the like)
 * - `operator`: the back office (/console/…): a signed-in operator's session, never an API key
 */
export type AuthLevel = 'key' | 'secret' | 'session' | 'none' | 'operator';

export type Meta = OpenApiMeta<{
  auth: AuthLevel;
  /** success status on /v1 when not 200 (201 created, 202 accepted, 204 no content) */
  successStatus?: 200 | 201 | 202 | 204;
  /** problem statuses beyond the ones every operation of its kind can answer (documented in OpenAPI) */
  problems?: (403 | 409 | 429)[];
  /** a public read that also accepts `X-User-Session` (with a secret key) to personalise the answer */
  optionalSession?: boolean;
  /** response headers on /v1 whatever the outcome (e.g. a preview: never cached, never indexed) */
  headers?: Record<string, string>;
  /** an example request body for the OpenAPI document (openapi.test.ts checks it against the input schema) */
  requestExample?: Record<string, unknown>;
  /**
   * A read answered from the key's marketplace alone (held in memory with the key): no entity
   * manager, no transaction, nothing sent to the database, and its answer kept with that
   * marketplace object on /v1 (http/rest.ts). The procedure must not use `ctx.em`.
   */
  touchesNoTable?: boolean;
  /**
   * A public read answered from the marketplace's settings and its public data only (the tables
   * whose changes notify `hm_reads_changed`: …_read_cache_notify migration's PUBLIC_READ_TABLES and
   * users' display names), the input, the key kind and the day — never from the time of day, a
   * session or the caller. Without `X-User-Session`, its answer is kept per API process until such a
   * change commits (apps/api/src/http/read-cache.ts). A read of any other table must not say this.
   */
  publicRead?: boolean;
  /**
   * A public read that shows listings (`one`: the answer is a listing, by its `id`; `page`: its
   * `items` are; ordered by favourite count with `sort=popular`): a change to one listing alone (its
   * favourite count) drops only its kept answers that show that listing, and those by `popular`
   * (read-cache.ts). A public read without it must show no listing field.
   */
  showsListings?: 'one' | 'page';
  /** named examples of the success body for the OpenAPI document (the events feed: one per event type) */
  responseExamples?: Record<string, { summary: string; value: unknown }>;
  /** back office: a change (viewers get 403, checked in one place: back-office/procedure.ts) */
  write?: boolean;
  /** back office: allowed to an admin who must still turn on two-factor codes (live mode) */
  enrolment?: boolean;
  /** command line: the one line printed instead of the JSON result */
  cliLine?: (output: unknown) => string;
}>;

type MetaLookup = (path: string) => Meta | undefined;
let metaLookup: MetaLookup = () => undefined;
let consoleMetaLookup: MetaLookup = () => undefined;
/** The router registers how to find a procedure's meta, so errors can say where a bad field was sent. */
export function setMetaLookup(lookup: MetaLookup) {
  metaLookup = lookup;
}
/** The same for the back office's router (its paths repeat /v1's: `listings.get` …). */
export function setConsoleMetaLookup(lookup: MetaLookup) {
  consoleMetaLookup = lookup;
}
/** The meta of the procedure at `path`: of the back office's router on its surface (`console`), else of /v1's. */
export function metaAt(surface: string | undefined, path: string): Meta | undefined {
  return (surface === 'console' ? consoleMetaLookup : metaLookup)(path);
}
