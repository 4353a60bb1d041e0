import type { FastifyInstance } from 'fastify';
import type { MikroORM } from '@hm/db/orm';
import type { ApiMode, AuthenticatedKey } from '@hm/domain/context';
import type { DomainError } from '@hm/domain/errors';
import { authenticateApiKey } from '@hm/domain/api-keys';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key resolved once per request; procedures decide what they need from it. */
    apiAuth?: AuthenticatedKey | DomainError;
  }
}

/** Resolved as the request arrives, so a caller can be refused before its body is read. */
export function addApiKeyResolution(app: FastifyInstance, orm: MikroORM, mode: ApiMode) {
  app.addHook('onRequest', async (req) => {
    if (req.headers.authorization === undefined) return;
    req.apiAuth = await authenticateApiKey(orm, req.headers.authorization, mode);
  });
}
