import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tenantEm, type MikroORM } from '@hm/db/orm';
import { claimKey, deleteKeyMadeAt, findKey, releaseKey, storeResponse, takeOverKey } from '@hm/domain/idempotency-keys';
import { sendProblem, problem } from './problem.js';

/**
 * Idempotency-Key on POST/PUT/PATCH/DELETE, per the spec: the first response to a key is stored
 * (unless 5xx) and replayed for the same request with `Idempotent-Replayed: true`; the same key
 * while the first is running → 409; with another method, path or body → 422; not a UUID → 400.
 * Scoped to the marketplace, the API key and the user session; kept 24 hours.
 */
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A record still "running" this long after its last claim belongs to a crashed process: retry may take it over. */
export const ABANDONED_AFTER_MS = 60 * 1000;
/** Replayed: what a client could need from the first response; never Request-Id (each request has its own). */
const REPLAYED_HEADERS = ['content-type', 'location', 'retry-after', 'cache-control'];

interface Claim {
  marketplaceId: string;
  scope: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: Claim;
  }
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function fingerprint(req: FastifyRequest): string {
  const url = new URL(req.url, 'http://x');
  const query = [...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256')
    .update(`${req.method}\n${url.pathname}\n${canonical(query)}\n${canonical(req.body ?? null)}`)
    .digest('hex');
}

export function addIdempotency(app: FastifyInstance, orm: MikroORM, clock: { now(): Date }) {
  // Records belong to the request's marketplace: read and written through its tenant-scoped entity manager.
  const db = (claim: Claim) => tenantEm(orm, claim.marketplaceId);

  app.addHook('preHandler', async (req, reply) => {
    if (!MUTATING.has(req.method)) return;
    const raw = req.headers['idempotency-key'];
    if (raw === undefined) return;
    const auth = req.apiAuth;
    if (!auth || !('marketplace' in auth)) return; // the request fails authentication anyway
    const key = Array.isArray(raw) ? raw.join(',') : raw;
    if (!UUID.test(key)) {
      return sendProblem(
        reply,
        problem('invalid_idempotency_key', 'Idempotency-Key must be a UUID, one per user action.', [{ location: 'header.Idempotency-Key', message: 'Must be a UUID.', value: key }]),
      );
    }
    const session = req.headers['x-user-session'];
    const scope = `${auth.apiKeyId}:${session ? createHash('sha256').update(String(session)).digest('hex') : ''}`;
    const claim: Claim = { marketplaceId: auth.marketplace.id, scope, key: key.toLowerCase() };
    const print = fingerprint(req);
    const now = clock.now();
    const em = db(claim);

    for (let attempt = 0; attempt < 3; attempt++) {
      if (await claimKey(em, claim.scope, claim.key, print, now)) {
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
        if (now.getTime() - new Date(row.locked_at).getTime() >= ABANDONED_AFTER_MS) {
          if (await takeOverKey(em, claim.scope, claim.key, row.locked_at, now)) {
            req.idempotency = claim;
            return;
          }
        }
        return sendProblem(reply, problem('idempotency_request_in_progress', 'A request with this Idempotency-Key is still being processed. Retry in a moment.'), { 'Retry-After': '1' });
      }
      return replay(reply, row.response_status!, row.response_headers ?? {}, row.response_body ?? Buffer.alloc(0));
    }
    return sendProblem(reply, problem('idempotency_request_in_progress', 'A request with this Idempotency-Key is contended. Retry in a moment.'), { 'Retry-After': '1' });
  });

  // Store the final response before it is written, so a retry right after it sees the result.
  app.addHook('onSend', async (req, reply, payload) => {
    const claim = req.idempotency;
    if (!claim) return payload;
    req.idempotency = undefined;
    const status = reply.statusCode;
    if (status >= 500) {
      await releaseKey(db(claim), claim.scope, claim.key);
      return payload;
    }
    const body = payload === null || payload === undefined ? Buffer.alloc(0) : Buffer.isBuffer(payload) ? payload : typeof payload === 'string' ? Buffer.from(payload) : undefined;
    if (!body) {
      // A streamed body cannot be stored: release the key rather than replay something else.
      await releaseKey(db(claim), claim.scope, claim.key);
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const h of REPLAYED_HEADERS) {
      const v = reply.getHeader(h);
      if (v !== undefined) headers[h] = String(v);
    }
    await storeResponse(db(claim), claim.scope, claim.key, { status, headers, body });
    return payload;
  });

  // A request that died before onSend (client gone, crash in a hook) must not hold its key for 60 s.
  app.addHook('onResponse', async (req) => {
    const claim = req.idempotency;
    if (!claim) return;
    await releaseKey(db(claim), claim.scope, claim.key, { onlyRunning: true });
  });
}

function replay(reply: FastifyReply, status: number, headers: Record<string, string>, body: Buffer) {
  reply.code(status).headers(headers).header('Idempotent-Replayed', 'true');
  return reply.send(status === 204 ? undefined : body);
}
