import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { MikroORM } from '@hm/db/orm';
import { setEventPublicUrl, type ApiMode, type Context, type KeptCounts, type Ports } from '@hm/domain/core';

export type CreateContext = (req: FastifyRequest, transport: 'rest' | 'trpc') => Context;

/** `keptCounts`: a /v1 request's exact counts kept per process (read-cache.ts `keptCountsOf`), when it has any. */
export function contextFactory(deps: { orm: MikroORM; mode: ApiMode; ports: Ports; publicUrl: string; backOfficeUrl?: string; keptCounts?: (req: FastifyRequest) => KeptCounts | undefined }): CreateContext {
  setEventPublicUrl(deps.publicUrl); // the image URLs of listings in events appended by this API
  return (req, transport) => {
    const keptCounts = deps.keptCounts?.(req);
    return {
      ...deps.ports,
      orm: deps.orm,
      mode: deps.mode,
      transport,
      requestId: String(req.id ?? randomUUID()),
      auth: req.apiAuth,
      sessionToken: sessionTokenOf(req),
      publicUrl: deps.publicUrl,
      ...(deps.backOfficeUrl !== undefined ? { backOfficeUrl: deps.backOfficeUrl } : {}),
      ...(req.clientIp !== undefined ? { clientIp: req.clientIp } : {}),
      ...(keptCounts ? { keptCounts } : {}),
    };
  };
}

/** `X-User-Session`, when sent and not empty. */
export function sessionTokenOf(req: FastifyRequest): string | undefined {
  const session = req.headers['x-user-session'];
  return typeof session === 'string' && session !== '' ? session : undefined;
}
