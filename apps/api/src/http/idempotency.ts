import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tenantEm, type MikroORM } from '@hm/db/orm';
import { claimKey, deleteKeyMadeAt, findKey, releaseKey, storeResponse, takeOverKey, type IdempotencyRecord } from '@hm/domain/core';
import { sessionRefusal, sessionUserId } from '@hm/contract/trpc';
import { sessionTokenOf } from './context.js';
import { digestWhileReading, fingerprint, open, recordKeys, seal, type RecordKeys } from './idempotency-record.js';
import { sendProblem, problem } from './problem.js';
import { WorkerLease, lockKey } from '@hm/jobs/worker-lease';

/**
 * Idempotency-Key on POST/PUT/PATCH/DELETE, per the spec: the first response to a key is stored
 * (unless 5xx) and replayed for the same request with `Idempotent-Replayed: true`; the same key
 * while the first is running → 409; with another method, path or body → 422; not a UUID → 400.
 * Scoped to the marketplace, the API key and the user session; kept 24 hours. Stored sealed (see
 * idempotency-record.ts), and replayed only while the user session it belongs to, and any session
 * it handed out, still work: otherwise the request runs as a fresh one would.
 */
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A record still "running" this long after its last claim belongs to a crashed process: retry may take it over. */
export const ABANDONED_AFTER_MS = 60 * 1000;
/**
 * A running record whose owner process holds no lease any more (it died: Postgres dropped its
 * session's advisory lock) is taken over this long after its claim — a few seconds, not a minute.
 */
export const OWNER_GONE_AFTER_MS = 2000;

/**
 * The process lease of this API process: a session advisory lock (the same kind the job runners
 * hold, @hm/jobs worker-lease.ts) held on its own connection while the process lives; its id is
 * the `owner` of the keys its requests claim. One per ORM (the /v1 and /trpc scopes share it).
 * The connection goes to `directUrl` when given: through a transaction pooler the lock would stay
 * on a pooled server connection that other clients' transactions then use (and that outlives this
 * process), so requests of any process would find this process's lease "held" by themselves.
 */
const leases = new WeakMap<MikroORM, { lease: WorkerLease; id: string }>();
function processLease(app: FastifyInstance, orm: MikroORM, directUrl?: string) {
  let held = leases.get(orm);
  if (!held) {
    const id = `api-${crypto.randomUUID()}`;
    const lease = new WorkerLease(directUrl ?? String(orm.config.get('clientUrl')), (level, message) => app.log[level === 'warning' ? 'warn' : level](message));
    lease.hold(id);
    held = { lease, id };
    leases.set(orm, held);
    app.addHook('onClose', async () => {
      leases.delete(orm);
      await lease.close();
    });
  }
  return held;
}
/** Replayed: what a client could need from the first response; never Request-Id (each request has its own). */
const REPLAYED_HEADERS = ['content-type', 'location', 'retry-after', 'cache-control'];

interface Claim {
  marketplaceId: string;
  scope: string;
  key: string;
  keys: RecordKeys;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: Claim;
  }
}

/** What a sealed body is bound to: the record's identity. */
const bindOf = (c: Claim) => `${c.marketplaceId}:${c.scope}:${c.key}`;

/** The raw API key (already authenticated by the time this runs). */
const bearerOf = (req: FastifyRequest) => /^Bearer (\S+)$/i.exec(String(req.headers.authorization ?? '').trim())?.[1] ?? '';

/** A session token handed out by a stored answer (sign-up and sign-in bodies: `session.token`). */
function issuedSession(headers: Record<string, string>, body: Buffer): string | undefined {
  if (!/json/.test(headers['content-type'] ?? '')) return undefined;
  try {
    const token = (JSON.parse(body.toString('utf8')) as { session?: { token?: unknown } } | null)?.session?.token;
    return typeof token === 'string' ? token : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whose records a request's are: its marketplace, the scope its keys live in (API key and user, or
 * the operator), the secret and user the sealed bodies are bound to, and whether a stored answer may
 * still be handed back (the session it was made in, or that it handed out, still works).
 */
export interface IdempotencyOwner {
  marketplaceId: string;
  scope: string;
  secret: string;
  user: string;
  /** 'fresh': answer as a new request would (the caller's session ended); 'rerun': make the answer again */
  replay(body: Buffer, headers: Record<string, string>): Promise<'ok' | 'fresh' | 'rerun'>;
}

/** /v1's owner: the API key and the user session (a session that has ended: no owner, the request fails authentication anyway). */
function apiKeyOwner(orm: MikroORM, clock: { now(): Date }) {
  return async (req: FastifyRequest): Promise<IdempotencyOwner | undefined> => {
    const auth = req.apiAuth;
    if (!auth || !('marketplace' in auth)) return undefined;
    // Scoped to the API key and the user (spec), so a retry from another session of the same user
    // replays. A session that has ended or is unknown: the request runs without the key and fails
    // authentication (401) like a fresh one, and nothing is stored.
    const session = sessionTokenOf(req);
    const user = session === undefined ? '' : await sessionUserId(orm, auth, session, clock.now());
    if (user === undefined) return undefined;
    return {
      marketplaceId: auth.marketplace.id,
      scope: `${auth.apiKeyId}:${user}`,
      secret: bearerOf(req),
      user,
      async replay(body, headers) {
        const now = clock.now();
        // A record made in a user session is that user's: once the session has ended (or the user is
        // blocked), the request is answered as a fresh one would be (401/403), and that is not stored.
        if (session !== undefined && (await sessionRefusal(orm, auth, session, now))) return 'fresh';
        // An answer that handed out a session is replayed only while that session lasts: after sign-out
        // the request runs again (a new sign-in, subject to the lockout).
        const issued = issuedSession(headers, body);
        if (issued !== undefined && (await sessionRefusal(orm, auth, issued, now))) return 'rerun';
        return 'ok';
      },
    };
  };
}

export function addIdempotency(
  app: FastifyInstance,
  orm: MikroORM,
  clock: { now(): Date },
  ownerOf: (req: FastifyRequest) => Promise<IdempotencyOwner | undefined> = apiKeyOwner(orm, clock),
  directUrl?: string,
) {
  // Records belong to the request's marketplace: read and written through its tenant-scoped entity manager.
  const db = (c: Claim) => tenantEm(orm, c.marketplaceId);
  const release = (c: Claim) => releaseKey(db(c), c.scope, c.key);
  const lease = processLease(app, orm, directUrl);
  /** this process's lease id while it holds the lease (else no owner: the 60 s timeout applies) */
  const leaseOwner = () => (lease.lease.held ? lease.id : null);

  // Callback hooks, not async ones: a request without an Idempotency-Key (every read) passes each
  // of them at once (an async hook costs every request a promise and a turn of the event loop).
  const claimed = (req: FastifyRequest) => MUTATING.has(req.method) && req.headers['idempotency-key'] !== undefined;

  // Bodies that are not JSON (photos) are fingerprinted by their bytes, hashed as they stream in.
  app.addHook('preParsing', (req, _reply, payload, done) => {
    done(null, claimed(req) ? digestWhileReading(req, payload) : payload);
  });

  /** The stored answer, if the client may still have it; 'rerun' when it must be made again; 'fresh' to run without the key. */
  async function replayable(owner: IdempotencyOwner, claim: Claim, row: IdempotencyRecord): Promise<Buffer | 'rerun' | 'fresh'> {
    const body = open(claim.keys, bindOf(claim), row.response_body ?? Buffer.alloc(0));
    if (!body) return 'rerun'; // not sealed by this version: make the answer again
    const verdict = await owner.replay(body, row.response_headers ?? {});
    return verdict === 'ok' ? body : verdict;
  }

  app.addHook('preHandler', (req, reply, done) => {
    if (!claimed(req)) return done();
    claim(req, reply).then((answered) => answered !== reply && done(), done); // answered (a replay, a refusal): the hooks stop there
  });

  /** The key's record claimed for this request (`req.idempotency`), or the request answered (a replay, a refusal). */
  async function claim(req: FastifyRequest, reply: FastifyReply) {
    const raw = req.headers['idempotency-key']!;
    const owner = await ownerOf(req);
    if (!owner) return; // the request fails authentication anyway
    const key = Array.isArray(raw) ? raw.join(',') : raw;
    if (!UUID.test(key)) {
      return sendProblem(
        reply,
        problem('invalid_idempotency_key', 'Idempotency-Key must be a UUID, one per user action.', [{ location: 'header.Idempotency-Key', message: 'Must be a UUID.', value: key }]),
      );
    }
    const claim: Claim = { marketplaceId: owner.marketplaceId, scope: owner.scope, key: key.toLowerCase(), keys: recordKeys(owner.secret, owner.user, key.toLowerCase()) };
    const print = fingerprint(claim.keys, req);
    const now = clock.now();
    const em = db(claim);

    for (let attempt = 0; attempt < 3; attempt++) {
      if (await claimKey(em, claim.scope, claim.key, print, now, leaseOwner())) {
        req.idempotency = claim;
        return;
      }
      const row = await findKey(em, claim.scope, claim.key);
      if (!row) continue; // removed meanwhile (5xx or expiry): claim again
      if (now.getTime() - new Date(row.created_at).getTime() >= IDEMPOTENCY_TTL_MS) {
        await deleteKeyMadeAt(em, claim.scope, claim.key, row.created_at);
        continue;
      }
      if (row.fingerprint !== print) {
        return sendProblem(
          reply,
          problem('idempotency_key_reused', 'This Idempotency-Key was used for a different request (method, path or body). Use a new key for a new action.'),
        );
      }
      if (row.state === 'running') {
        const age = now.getTime() - new Date(row.locked_at).getTime();
        // its owner died (its lease is free), or it is older than any request runs
        if ((row.owner && age >= OWNER_GONE_AFTER_MS) || age >= ABANDONED_AFTER_MS) {
          const abandonedBefore = new Date(now.getTime() - ABANDONED_AFTER_MS);
          if (await takeOverKey(em, claim.scope, claim.key, row.locked_at, now, { owner: leaseOwner(), abandonedBefore, ownerLock: lockKey('owner') })) {
            req.idempotency = claim;
            return;
          }
        }
        return sendProblem(reply, problem('idempotency_request_in_progress', 'A request with this Idempotency-Key is still being processed. Retry in a moment.'), { 'Retry-After': '1' });
      }
      const stored = await replayable(owner, claim, row);
      if (stored === 'fresh') return;
      if (stored === 'rerun') {
        await releaseKey(em, claim.scope, claim.key, { state: 'done' });
        continue;
      }
      return replay(reply, row.response_status!, row.response_headers ?? {}, stored);
    }
    return sendProblem(reply, problem('idempotency_request_in_progress', 'A request with this Idempotency-Key is contended. Retry in a moment.'), { 'Retry-After': '1' });
  }

  // Store the final response before it is written, so a retry right after it sees the result. This
  // hook is added after the /v1 problem rewrite (app.ts), so it stores exactly what the client gets.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (!req.idempotency) return done(null, payload);
    storeAnswer(req, reply, payload).then((p) => done(null, p), done);
  });

  async function storeAnswer(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const claim = req.idempotency!;
    req.idempotency = undefined;
    const status = reply.statusCode;
    const body = payload === null || payload === undefined ? Buffer.alloc(0) : Buffer.isBuffer(payload) ? payload : typeof payload === 'string' ? Buffer.from(payload) : undefined;
    // 5xx are not stored (a retry runs again); nor is a streamed body, rather than replay something else.
    if (status >= 500 || !body) {
      await release(claim);
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const h of REPLAYED_HEADERS) {
      const v = reply.getHeader(h);
      if (v !== undefined) headers[h] = String(v);
    }
    await storeResponse(db(claim), claim.scope, claim.key, { status, headers, body: seal(claim.keys, bindOf(claim), body) });
    return payload;
  }

  // A request that died before onSend (client gone, crash in a hook) must not hold its key for 60 s.
  app.addHook('onResponse', (req, _reply, done) => {
    const claim = req.idempotency;
    if (!claim) return done();
    releaseKey(db(claim), claim.scope, claim.key, { state: 'running' }).then(() => done(), done);
  });
}

function replay(reply: FastifyReply, status: number, headers: Record<string, string>, body: Buffer) {
  reply.code(status).headers(headers).header('Idempotent-Replayed', 'true');
  return reply.send(status === 204 ? undefined : body);
}
