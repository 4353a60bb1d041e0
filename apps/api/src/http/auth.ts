import type { FastifyInstance } from 'fastify';
import type { AuthenticatedKey } from '@hm/domain/core';
import type { DomainError } from '@hm/contract/problems';
import type { Authenticate } from './api-key-cache.js';
import { resolveClientIp } from './client-ip.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key resolved once per request; procedures decide what they need from it. */
    apiAuth?: AuthenticatedKey | DomainError;
  }
}

/** Resolved as the request arrives, so a caller can be refused before its body is read; then `X-Client-IP`, which needs the key. */
export function addApiKeyResolution(app: FastifyInstance, authenticate: Authenticate) {
  app.addHook('onRequest', async (req) => {
    if (req.headers.authorization === undefined) return;
    req.apiAuth = await authenticate(req.headers.authorization);
    resolveClientIp(req);
  });
}
